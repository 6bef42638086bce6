import Foundation
import GalleryConfig
import GalleryFetch
import GalleryImaging
import GalleryModel
import GalleryOutput
import GalleryProviders
import GalleryRender
import GalleryStore

/// A whole build, and the only place that knows the order of the pipeline's steps:
///
/// 1. `lock`     take the site's state lock, so two builds never run at once
/// 2. `theme`    load the built-in templates and the site's overrides
/// 3. `state`    open the state database and load what the last build left
/// 4. `manifest` ask the provider for the photo list (or the state, `--offline`)
/// 5. `images`   per photo, in parallel: identify the original, make the missing derivatives, stage them;
///               each photo's outcome comes back as a value, with what it learnt (`Learnt`), and one
///               task gathers them: rows and blob records stream into the state's pending tables
///               (`PhotoRows`), facts and placeholders into `BuildState`
/// 6. `downloads` zip each album whose `download` is `album`, from the files the images step staged,
///               or link its unchanged zip from the cache (`AlbumZips`); album pages show the sizes
/// 7. `pages`    work out the model of every grid, photo, album, tag and 404 page, the feed and the
///               sitemap; render those whose inputs changed, link the rest from the page cache
/// 8. `static`   stage the theme's static files (CSS and JS fingerprinted) and `_headers`
/// 9. `state`    merge the manifest into the state: new, changed, removed photos and their blobs, the
///               pending rows applied in the same transaction
/// 10. `publish`  swap the staged site in for the old one
///
/// Step 3 also reads what images-only builds on other machines left in the cache (`SharedCache`),
/// so a build after `--shard` builds decodes nothing they made; those builds run `runImagesOnly`.
///
/// Every build stages the complete site, so its output is the same as a clean build's; the state
/// and caches only decide what can be linked instead of made. Any failure before `publish` leaves
/// the previous site untouched, and so does a `kill -9` at any moment. One bad photo is reported
/// and skipped; the build only fails when no photo at all could be published.
package struct Build: Sendable {
    package let config: SiteConfig
    package let options: BuildOptions
    package let progress: @Sendable (BuildEvent) -> Void
    package let photoProgress: @Sendable (_ done: Int, _ total: Int) -> Void

    /// - Parameters:
    ///   - progress: Receives one event per step, one per photo left out and one per warning.
    ///   - photoProgress: Called after each photo of the `images` step, for a live counter.
    package init(
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
    package func run() async throws -> BuildReport {
        let transport = HTTPTransport(settings: config.network)
        do {
            let downloader = Downloader(
                transport: transport, cacheFolder: BuildState.originalsFolder(cache: config.cacheDirectory),
                offline: options.offline, reuseCache: !options.rebuild)
            let report = try await run(downloader: downloader)
            await transport.shutdown()
            return report
        } catch let error as BuildError {
            await transport.shutdown()
            if Task.isCancelled { throw CancellationError() }
            throw error.mapText(config.credentials.redact)
        } catch {
            await transport.shutdown()
            if Task.isCancelled { throw CancellationError() }
            throw BuildError(step: .build, underlying: error).mapText(config.credentials.redact)
        }
    }

    private func run(downloader: Downloader) async throws -> BuildReport {
        if let shard = options.imagesOnly { return try await runImagesOnly(shard, downloader: downloader) }
        let started = ContinuousClock.now
        var report = BuildReport()
        var timings: [BuildStep: Double] = [:]
        report.output = config.output.path
        report.offline = options.offline
        report.forced = options.rebuild

        let lock = try step(.lock, &timings) {
            try BuildLock.acquire(stateDirectory: config.stateDirectory, purpose: "build of \(config.configFile.path)")
        }
        defer { lock.release() }
        // Before any work: the output must be missing, empty or galleryssg's (`--force` takes it over).
        let aside = OutputFolder.asideFolder(for: config.output)
        let claim = try step(.output, &timings) {
            try OutputFolder.claim(
                config.output, protecting: config.protectedFolders, builtByState: { stateRecordsBuilds },
                takeOver: options.takeOver, aside: aside)
        }
        if let moved = claim.moved {
            progress(.warning(OutputError.movedAside(claim.movedCount, from: config.output.path, to: moved.path)))
        }

        let theme = try step(.theme, &timings) {
            try Theme(overridesIn: config.templates)
        }
        if !theme.overrides.isEmpty {
            progress(.step("theme: \(theme.overrides.count) file(s) from \(config.templates.path)"))
        }
        report.templateWarnings = theme.warnings()
        report.templateWarnings.forEach { progress(.warning($0)) }
        let assets = try step(.theme, &timings) {
            Assets(
                staticFiles: try MapLibrary.staticFiles(needed: config.images.showLocation)
                    .merging(theme.staticFiles) { _, theme in theme })
        }
        let renderer = try step(.theme, &timings) { try SiteRenderer(config: config, theme: theme, assets: assets) }

        let provider = makeProvider(downloader: downloader)
        report.source = provider.summary
        let database = try step(.state, &timings) {
            try StateDatabase.open(folder: config.stateDirectory, warn: { progress(.warning($0)) })
        }
        // What a build that failed or was killed left pending describes no site.
        try await asyncStep(.state, &timings) { try await database.clearPending() }
        var manifest = try await asyncStep(.manifest, &timings) {
            try await fetchManifest(provider, database: database)
        }
        let hidden = try step(.manifest, &timings) { try hideAlbums(&manifest) }
        report.photosInManifest = manifest.photos.count + manifest.issues.count
        report.failures = manifestFailures(manifest)
        report.ignored = manifest.ignored
        if !manifest.ignored.isEmpty {
            progress(
                .step(
                    "manifest: \(manifest.ignored.count) files ignored on purpose (\(report.ignoredSummary)); --report lists them"
                ))
        }
        if manifest.photos.isEmpty && manifest.issues.isEmpty {
            report.emptySource = emptySourceWarning(provider)
            progress(.warning(report.emptySource ?? ""))
        }

        // The manifest's photos wait in a file, each read when its turn comes (`PhotoList`). The file
        // is written before the state is loaded, so the photos (about 0.6 KB each) and the state's
        // blob records are never in memory together.
        let listed = try step(.images, &timings) { try PhotoList(manifest.photos, folder: config.stateDirectory) }
        manifest.photos = []
        var snapshot = try await asyncStep(.state, &timings) {
            try await database.loadSnapshot(source: provider.summary)
        }

        let writer = try step(.output, &timings) {
            try StagedWriter.begin(
                output: config.output, protecting: config.protectedFolders,
                takeOver: options.takeOver, aside: aside)
        }
        do {
            let blobs = snapshot.takeBlobs()
            let consumed = try await asyncStep(.state, &timings) { try await database.consumedLearntFiles() }
            let state = try step(.state, &timings) {
                BuildState(
                    snapshot: snapshot, blobs: blobs, cache: config.cacheDirectory,
                    shared: learntInCache(consumed: consumed), reuse: !options.rebuild, database: database)
            }
            report.learntFilesRead = state.shared.files
            report.learntFilesUnchanged = state.shared.unchanged
            let fetcher = OriginalFetcher(downloader: downloader, maxBytes: config.network.maxDownloadBytes)
            let photos = PhotoPublisher(
                fetcher: fetcher, processor: ImageProcessor(settings: config.images),
                writer: writer, publishOriginals: config.images.publishOriginals, state: state,
                videos: VideoWork(config.video, options: options))
            var outcome = try await publishImages(
                listed, with: photos, state: state, downloader: downloader,
                report: &report, timings: &timings,
                noneProcessed: "none of the \(listed.count) photos could be processed "
                    + "(see the lines above); the previous site was kept")

            let pages: PagePublisher.Outcome
            var sealTargets: [AlbumSealer.Target] = []
            do {  // The plan holds every gallery item; it goes with this scope, before the state step.
                var plan = renderer.plan(
                    outcome.takeItems(), albums: manifest.albums, albumTokens: hidden.tokens,
                    albumFolders: hidden.folders,
                    placeholders: PlaceholderLookup { state.placeholderURI($0) })
                announceUnlisted(plan, hidden, renderer: renderer)
                sealTargets = hidden.protected.compactMap { album in
                    plan.sections.albums.albums.first { $0.path == album.path }
                        .map { AlbumSealer.Target(album: album, folder: SiteLayout.album($0.slugPath)) }
                }
                let zips = AlbumZips(writer: writer, cache: config.cacheDirectory, reuse: !options.rebuild)
                let zipped = try step(.downloads, &timings) { try zips.publish(plan) }
                plan = plan.adding(downloads: zipped.downloads)
                report.bytesWritten += Int(zipped.bytesMade)
                if !zipped.downloads.isEmpty {
                    progress(
                        .step(
                            "downloads: \(zipped.downloads.count) album zips (\(zipped.made) new or changed, \(zipped.reused) unchanged)"
                        ))
                }
                let publisher = PagePublisher(
                    writer: writer, cache: state.pages, reusePages: !options.rebuild, linkWindow: options.readWindow,
                    previousSiteKey: options.rebuild ? nil : snapshot.pagesKey, database: database)
                pages = try await asyncStep(.pages, &timings) {
                    try await publisher.publish(
                        plan, renderer: renderer, jobs: options.jobs,
                        rows: {
                            try await PhotoRows.forEach(
                                outcome.published, database: database, window: options.readWindow, $0)
                        })
                }
            }
            try step(.pages, &timings) { try state.check() }
            report.pages = pages.pages
            report.pagesRendered = pages.rendered
            report.pagesReused = pages.reused
            report.searchIndexSeconds = pages.plainFileSeconds
            report.bytesWritten += pages.bytes
            progress(.step("pages: \(pages.pages) pages (\(pages.rendered) new or changed, \(pages.reused) unchanged)"))

            try step(.static, &timings) {
                for (path, data) in assets.files.sorted(by: { $0.key < $1.key }) {
                    try writer.write(data, to: path)
                    report.bytesWritten += data.count
                }
                try writer.write(Data(assets.headersFile.utf8), to: "_headers")
            }
            if !sealTargets.isEmpty || hidden.site != nil {
                let sealed = try step(.seal, &timings) {
                    try sealProtected(
                        sealTargets, site: hidden.site, writer: writer, renderer: renderer, assets: assets)
                }
                report.bytesWritten += sealed.bytes
                let what =
                    (hidden.site == nil ? [] : ["the site"])
                    + (sealTargets.isEmpty ? [] : ["\(sealTargets.count) protected album(s)"])
                progress(
                    .step(
                        "seal: \(sealed.files) files of \(what.joined(separator: " and ")) encrypted "
                            + "(\(sealed.made) made, \(sealed.reused) from the cache)"))
            }
            // Before the state is saved: the earlier site's files this build does not keep must all be galleryssg's.
            let moved = try await asyncStep(.publish, &timings) {
                try await writer.settle(takeOver: options.takeOver, aside: aside)
            }
            if moved.foreign > 0 {
                progress(.warning(OutputError.movedAside(moved.foreign, from: writer.staging.path, to: aside.path)))
            }
            if moved.unknown > 0 {
                progress(.warning(OutputError.movedFromEarlierVersion(moved.unknown, to: aside.path)))
            }
            try await asyncStep(.state, &timings) {
                let merge = try await StateMerge(
                    priors: state.priors, window: options.readWindow, published: outcome.published,
                    tally: outcome.tally, failed: outcome.failed, pages: pages, database: database)
                var changes = merge.changes
                outcome.published = []  // what the state needs of them is in `changes` and the pending table now
                report.photosRemoved = changes.counts.photosRemoved
                state.images.remove(merge.orphanImageKeys)
                state.pages.remove(merge.orphanPageKeys)
                changes.deletedBlobs = merge.orphanImageKeys + merge.orphanPageKeys
                // The blob records the photos and pages carried back are in the pending table
                // (`PhotoRows`, `PagePublisher`), applied with the rest in this transaction.
                (changes.originals, changes.placeholders) = state.learnt
                changes.pagesKey = pages.siteKey
                changes.learntFiles = state.shared.stamps
                changes.counts.pagesRendered = pages.rendered
                changes.counts.pagesReused = pages.reused
                for location in merge.orphanDownloads { fetcher.forget(location) }
                try await database.saveChanges(changes)
            }
            try await asyncStep(.publish, &timings) {
                let marker = SiteMarker(inputs: SiteFreshness.inputs(config), stateBuild: try database.lastBuildID())
                try await writer.commit(marker: marker)
            }
        } catch {
            writer.abort()
            throw error
        }
        report.failures = redacted(report.failures)
        report.photosSkipped = report.failures.count
        report.stepSeconds = timings
        report.totalSeconds = started.secondsElapsed
        return report
    }

    /// Whether the photo list comes over the network, so `--offline` reads it from the state.
    private var sourceIsRemote: Bool {
        switch config.source {
        case .manifestURL, .flickr, .fiveHundredPx, .parse: return true
        case .folder, .manifestFile: return false
        }
    }

    /// The provider's manifest, or with `--offline` and a remote source the one the last build saved.
    private func fetchManifest(_ provider: any PhotoProvider, database: StateDatabase) async throws -> Manifest {
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
