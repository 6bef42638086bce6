import Foundation
import GalleryConfig
import GalleryFetch
import GalleryProviders
import GalleryStore

/// A whole build, and the only place that knows the order of the pipeline's steps. `runSteps` lists
/// them: each step is a function that takes what earlier steps made and returns what it makes
/// (`Build+Values.swift`), so a step left out or moved up is a compile error; in words:
///
/// 1. `lock`     take the site's state lock, so two builds never run at once
/// 2. `output`   check that the output is missing, empty or galleryssg's (`--force` moves a stranger's aside)
/// 3. `theme`    load the built-in templates and the site's overrides
/// 4. `state`    open the state database and clear what a failed build left pending
/// 5. `manifest` ask the provider for the photo list (or the state, `--offline`)
/// 6. `state`    load what the last build left; `output` begins the staging folder beside the output
/// 7. `images`   per photo, in parallel: identify the original, make the missing derivatives, stage them;
///               each photo's outcome comes back as a value, with what it learnt (`Learnt`), and one
///               task gathers them: rows and blob records stream into the state's pending tables
///               (`PhotoRows`), facts and placeholders into `BuildState`
/// 8. `pages`    work out the model of every grid, photo, album, tag and 404 page, the feed and the
///               sitemap; `downloads` zips each album whose `download` is `album` from the files the
///               images step staged, or links its unchanged zip from the cache (`AlbumZips`); then
///               `pages` renders those whose inputs changed and links the rest from the page cache
/// 9. `static`   stage the theme's static files (CSS and JS fingerprinted) and `_headers`; `seal`
///               encrypts protected albums (or the whole site under a password)
/// 10. `publish` check that the old site's files the new one drops are galleryssg's; `state` merges
///               the manifest into the state (new, changed, removed photos and their blobs, the pending
///               rows in the same transaction); `publish` swaps the staged site in for the old one
///
/// Step 6 also reads what images-only builds on other machines left in the cache (`SharedCache`),
/// so a build after `--shard` builds decodes nothing they made; those builds run `runImagesOnly`.
///
/// Every build stages the complete site, so its output is the same as a clean build's; the state
/// and caches only decide what can be linked instead of made. Any failure before `publish` leaves
/// the previous site untouched, and so does a `kill -9` at any moment. One bad photo is reported
/// and skipped; the build only fails when no photo at all could be published, or at once on a full
/// disk (`PhotoPublisher.stopsBuild`). A damaged state database is set aside and the steps run
/// again from a fresh state (`Build.stopping`).
public struct Build: Sendable {
    package let config: SiteConfig
    package let options: BuildOptions
    package let progress: @Sendable (BuildEvent) -> Void
    package let photoProgress: @Sendable (_ done: Int, _ total: Int) -> Void

    /// - Parameters:
    ///   - progress: Receives one event per step, one per photo left out and one per warning.
    ///   - photoProgress: Called after each photo of the `images` step, for a live counter.
    public init(
        config: SiteConfig, options: BuildOptions = BuildOptions(),
        progress: @escaping @Sendable (BuildEvent) -> Void = { _ in },
        photoProgress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) {
        self.config = config
        self.options = options
        self.progress = { progress($0.mapText(config.credentials.redact)) }
        self.photoProgress = photoProgress
    }

    /// Runs every step and returns the report.
    ///
    /// Cancelling the task (Ctrl-C in the CLI) stops the build at its next wait: no further photo
    /// starts, waiters for the CPU budget, a host's connections or a retry give up, and the state
    /// is not saved; the staging folder becomes the spare (or goes), as after any failure. Once the
    /// state is saved the build runs to its end.
    /// - Throws: `BuildError` naming the step, or `CancellationError` when the task was cancelled;
    ///   the previous output is kept.
    public func run() async throws -> BuildReport {
        let transport = HTTPTransport(settings: config.network)
        do {
            let downloader = Downloader(
                transport: transport, cacheFolder: BuildState.originalsFolder(cache: config.cacheDirectory),
                offline: options.offline, reuseCache: !options.rebuild,
                originHeaders: OriginHeaders.for(config.source))
            let report = try await run(downloader: downloader)
            await transport.shutdown()
            return report
        } catch {
            await transport.shutdown()
            if Task.isCancelled { throw CancellationError() }
            throw BuildError.at(.build, error).mapText(config.credentials.redact)
        }
    }

    private func run(downloader: Downloader) async throws -> BuildReport {
        if let shard = options.imagesOnly { return try await runImagesOnly(shard, downloader: downloader) }
        do {
            return try await runSteps(downloader: downloader, recover: true)
        } catch is StateSetAside {
            // The damaged state database is kept aside (`stopping`): the build again, from a fresh state.
            return try await runSteps(downloader: downloader, recover: false)
        }
    }

    /// A full build's steps, in order (see `Build`). Each is a function that takes what the step
    /// before it made and returns what it makes (`Build+Values.swift`), so the compiler holds the
    /// order; `StepClock` times each under its name, and an error in it names it. Several share a
    /// name, so the report's timings add up to the ten steps above.
    private func runSteps(downloader: Downloader, recover: Bool) async throws -> BuildReport {
        var clock = StepClock()
        var report = BuildReport()
        report.output = config.output.path
        report.offline = options.offline
        report.forced = options.rebuild
        let lock = try await clock.step(.lock) { try takeLock() }
        defer { lock.release() }
        let opened: Opened
        do {
            let claimed = try await clock.step(.output) { try claimOutput(lock) }
            let themed = try await clock.step(.theme) { try loadTheme(claimed, report: &report) }
            opened = try await clock.step(.state) {
                try await openState(themed, downloader: downloader, report: &report)
            }
        } catch {
            throw try stopping(error, source: report.source, database: nil, recover: recover)
        }
        do {
            try await publishSite(opened, downloader: downloader, clock: &clock, report: &report)
        } catch {
            throw try stopping(error, source: report.source, database: opened.database, recover: recover)
        }
        var done = finished(report, clock)
        done.host = measureForHost()
        return done
    }

    /// The steps from the photo list on, with the state database open. If one fails after the
    /// staging folder was begun, the staging folder goes (`StagedWriter.abort`).
    private func publishSite(
        _ opened: Opened, downloader: Downloader, clock: inout StepClock, report: inout BuildReport
    ) async throws {
        var listing = try await clock.step(.manifest) { try await readManifest(opened, report: &report) }
        let listed = try await clock.step(.images) { try listPhotos(&listing) }
        var loaded = try await clock.step(.state) { try await loadLastBuild(listed) }
        let writer = try await clock.step(.output) { try beginStaging(loaded) }
        do {
            let ready = try await clock.step(.state) {
                try await prepareCaches(&loaded, writer: writer, report: &report)
            }
            try await makeSite(ready, downloader: downloader, clock: &clock, report: &report)
        } catch {
            writer.abort()
            throw error
        }
    }

    /// The steps from the images to the swap, each with what the `state` (caches) step made ready.
    private func makeSite(
        _ ready: Ready, downloader: Downloader, clock: inout StepClock, report: inout BuildReport
    ) async throws {
        var imaged = try await clock.step(.images) {
            try await publishImages(in: ready, downloader: downloader, report: &report)
        }
        let paged: Paged
        do {  // The plan, which holds every gallery item, goes at the end of this scope.
            let planned = try await clock.step(.pages) { planSite(&imaged, in: ready) }
            let zipped = try await clock.step(.downloads) { try zipAlbums(planned, in: ready, report: &report) }
            paged = try await clock.step(.pages) {
                try await publishPages(zipped, imaged, in: ready, report: &report)
            }
        }
        let complete = try await clock.step(.static) { try stageStatic(paged, in: ready, report: &report) }
        if complete.sealing.hasWork {
            try await clock.step(.seal) { try seal(complete, in: ready, report: &report) }
        }
        let settled = try await clock.step(.publish) { try await settle(complete, in: ready) }
        let saved = try await clock.step(.state) { try await saveState(settled, &imaged, in: ready, report: &report) }
        try await clock.step(.publish) { try await commit(saved, in: ready) }
    }
}
