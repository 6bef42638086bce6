import Foundation
import GalleryConfig
import GalleryFetch
import GalleryProviders
import GalleryStore

/// A whole build, and the only place that knows the order of the pipeline's steps. `Build.steps`
/// lists them as values (each a `Step` that `BuildRun` carries the build's work through); in words:
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

    private func runSteps(downloader: Downloader, recover: Bool) async throws -> BuildReport {
        let run = BuildRun(build: self, downloader: downloader)
        defer { run.lock?.release() }
        do {
            for step in Self.steps { try await step.run(run) }
        } catch {
            run.writer?.abort()
            throw try stopping(run, error, recover: recover)
        }
        var report = run.finish()
        report.host = measureForHost()
        return report
    }

    /// A full build's steps, in order (see `Build`); each is timed under its name, and an error in it
    /// names it. Several share a name, so the report's timings add up to the ten steps above.
    package static let steps: [Step] = [
        Step(.lock) { try $0.takeLock() },
        Step(.output) { try $0.claimOutput() },
        Step(.theme) { try $0.loadTheme() },
        Step(.state) { try await $0.openState() },
        Step(.manifest) { try await $0.readManifest() },
        Step(.images) { try $0.listPhotos() },
        Step(.state) { try await $0.loadLastBuild() },
        Step(.output) { try $0.beginStaging() },
        Step(.state) { try await $0.prepareCaches() },
        Step(.images) { try await $0.publishImages() },
        Step(.pages) { $0.planSite() },
        Step(.downloads) { try $0.zipAlbums() },
        Step(.pages) { try await $0.publishPages() },
        Step(.static) { try $0.stageStatic() },
        Step(.seal, if: \.hasSealing) { try $0.seal() },
        Step(.publish) { try await $0.settle() },
        Step(.state) { try await $0.saveState() },
        Step(.publish) { try await $0.commit() }
    ]

    /// Whether the photo list comes over the network, so `--offline` reads it from the state.
    var sourceIsRemote: Bool {
        switch config.source {
        case .manifestURL, .flickr, .fiveHundredPx, .parse, .immich: return true
        case .folder, .manifestFile: return false
        }
    }

    /// The provider's manifest, or with `--offline` and a remote source the one the last build saved.
    package func fetchManifest(_ provider: any PhotoProvider, database: StateDatabase) async throws -> Manifest {
        if options.offline && sourceIsRemote {
            let photos = try await database.persistedManifest(source: provider.summary)
            guard !photos.isEmpty else {
                throw BuildError(
                    step: .manifest,
                    "--offline: \(config.stateDirectory.path) holds no manifest of "
                        + "\(provider.summary) from an earlier build; build once online first")
            }
            progress(.step("manifest: \(photos.count) photos from the last build of \(provider.summary) (offline)"))
            return Manifest(photos: photos)
        }
        do {
            let manifest = try await provider.fetchManifest()
            progress(.step("manifest: \(manifest.photos.count) photos from \(provider.summary)"))
            return manifest
        } catch {
            var reason = "\(error)"
            if sourceIsRemote, let known = try? await database.photoCount(source: provider.summary), known > 0 {
                reason +=
                    "; to build from the last fetched manifest and the cached originals, run galleryssg build --offline"
            }
            throw BuildError(step: .manifest, reason)
        }
    }

}
