import Foundation
import GalleryConfig
import GalleryFetch
import GalleryImaging
import GalleryOutput
import GalleryRender
import GalleryStore

/// The steps of a full build up to its photos: the lock, the output, the theme, the state and the
/// manifest, then the images (`Build.steps` runs them in order).
extension BuildRun {
    /// `lock`: two builds of one site never run at once; released when the build ends. The state
    /// folder, made by the lock, is the owner's alone (`PrivateFolder`).
    func takeLock() throws {
        lock = try BuildLock.acquire(
            stateDirectory: config.stateDirectory, purpose: "build of \(config.configFile.path)")
    }

    /// `output`: before any work, the output must be missing, empty or galleryssg's (`--force` takes it over).
    func claimOutput() throws {
        let claim = try OutputFolder.claim(
            config.output, book: config.siteBook, protecting: config.protectedFolders,
            builtByState: { [build] in build.stateRecordsBuilds },
            takeOver: options.takeOver, aside: aside)
        if let moved = claim.moved {
            progress(.warning(OutputError.movedAside(claim.movedCount, from: config.output.path, to: moved.path)))
        }
    }

    /// `theme`: the built-in templates and the site's overrides, the static files and the renderer.
    func loadTheme() throws {
        let theme = try Theme(overridesIn: config.templates)
        if !theme.overrides.isEmpty {
            progress(.step("theme: \(theme.overrides.count) file(s) from \(config.templates.path)"))
        }
        report.templateWarnings = theme.warnings()
        report.templateWarnings.forEach { progress(.warning($0)) }
        let assets = Assets(
            staticFiles: try MapLibrary.staticFiles(needed: config.images.showLocation)
                .merging(theme.staticFiles) { _, theme in theme })
        renderer = try SiteRenderer(config: config, theme: theme, assets: assets)
        (self.theme, self.assets) = (theme, assets)
    }

    /// `state`: opens the state database; what a build that failed or was killed left pending describes no site.
    /// The cache folder is made here, the owner's alone, once the output's place has been checked.
    func openState() async throws {
        try build.makeCacheFolder()
        provider = build.makeProvider(downloader: downloader)
        report.source = provider.summary
        // A damaged database that holds `--offline`'s manifest is not set aside (`Build.stopping`).
        database = try StateDatabase.open(
            folder: config.stateDirectory, warn: { [build] in build.progress(.warning($0)) },
            recover: !(options.offline && build.sourceIsRemote))
        try await database.clearPending()
    }

    /// `manifest`: the provider's photo list, with hidden albums' photos given their token ids.
    func readManifest() async throws {
        manifest = try await build.fetchManifest(provider, database: database)
        hidden = try build.hideAlbums(&manifest)
        report.photosInManifest = manifest.photos.count + manifest.issues.count
        report.failures = build.manifestFailures(manifest)
        report.warnings = build.manifestWarnings(manifest)
        report.ignored = manifest.ignored
        if !manifest.ignored.isEmpty {
            progress(
                .step(
                    "manifest: \(manifest.ignored.count) files ignored on purpose (\(report.ignoredSummary)); --report lists them"
                ))
        }
        if manifest.photos.isEmpty && manifest.issues.isEmpty {
            report.emptySource = build.emptySourceWarning(provider)
            progress(.warning(report.emptySource ?? ""))
        }
    }

    /// `images` (listed): the manifest's photos wait in a file, each read when its turn comes
    /// (`PhotoList`). The file is written before the state is loaded, so the photos (about 0.6 KB
    /// each) and the state's blob records are never in memory together.
    func listPhotos() throws {
        listed = try PhotoList(manifest.photos, folder: config.stateDirectory)
        manifest.photos = []
    }

    /// `state` (last build): what the last build left.
    func loadLastBuild() async throws {
        snapshot = try await database.loadSnapshot(source: provider.summary)
    }

    /// `output` (staging): the folder beside the output that the new site is staged in.
    func beginStaging() throws {
        writer = try StagedWriter.begin(
            output: config.output, book: config.siteBook, protecting: config.protectedFolders,
            takeOver: options.takeOver, aside: aside)
    }

    /// `state` (caches): the caches of derivatives and pages, and what images-only builds left in the cache.
    func prepareCaches() async throws {
        let blobs = snapshot.takeBlobs()
        let consumed = try await database.consumedLearntFiles()
        state = BuildState(
            snapshot: snapshot, blobs: blobs, cache: config.cacheDirectory,
            shared: build.learntInCache(consumed: consumed), reuse: !options.rebuild, database: database)
        report.learntFilesRead = state.shared.files
        report.learntFilesUnchanged = state.shared.unchanged
    }

    /// `images`: every photo published within `--jobs` and the pixel budget (`Build.publishImages`).
    func publishImages() async throws {
        let fetcher = OriginalFetcher(downloader: downloader, maxBytes: config.network.maxDownloadBytes)
        let photos = PhotoPublisher(
            fetcher: fetcher, processor: ImageProcessor(settings: config.images),
            writer: writer, publishOriginals: config.images.publishOriginals, state: state,
            videos: VideoWork(config.video, options: options))
        outcome = try await build.publishImages(
            listed, with: photos, state: state, downloader: downloader, report: &report,
            noneProcessed: "none of the \(listed.count) photos could be processed "
                + "(see the lines above); the previous site was kept")
        self.fetcher = fetcher
    }
}
