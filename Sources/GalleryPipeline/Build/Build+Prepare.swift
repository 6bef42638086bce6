import Foundation
import GalleryConfig
import GalleryFetch
import GalleryImaging
import GalleryOutput
import GalleryRender
import GalleryStore

/// The steps of a full build up to its photos: the lock, the output, the theme, the state and the
/// manifest (`Build.runSteps` runs them in order, each taking what the one before it made).
extension Build {
    /// `lock`: two builds of one site never run at once; released when the build ends. The state
    /// folder, made by the lock, is the owner's alone (`PrivateFolder`).
    func takeLock() throws -> BuildLock {
        try BuildLock.acquire(stateDirectory: config.stateDirectory, purpose: "build of \(config.configFile.path)")
    }

    /// `output`: before any work, the output must be missing, empty or galleryssg's (`--force` takes it over).
    /// - Parameter lock: The site's lock, held: no other build claims the output meanwhile.
    func claimOutput(_ lock: BuildLock) throws -> Claimed {
        let aside = OutputFolder.asideFolder(for: config.output)
        let claim = try OutputFolder.claim(
            config.output, book: config.siteBook, protecting: config.protectedFolders,
            builtByState: { stateRecordsBuilds }, takeOver: options.takeOver, aside: aside)
        if let moved = claim.moved {
            progress(.warning(OutputError.movedAside(claim.movedCount, from: config.output.path, to: moved.path)))
        }
        return Claimed(aside: aside)
    }

    /// `theme`: the built-in templates and the site's overrides, the static files and the renderer.
    func loadTheme(_ claimed: Claimed, report: inout BuildReport) throws -> Themed {
        let theme = try Theme(overridesIn: config.templates)
        if !theme.overrides.isEmpty {
            progress(.step("theme: \(theme.overrides.count) file(s) from \(config.templates.path)"))
        }
        report.templateWarnings = theme.warnings()
        report.templateWarnings.forEach { progress(.warning($0)) }
        let assets = Assets(
            staticFiles: try MapLibrary.staticFiles(needed: config.images.showLocation)
                .merging(theme.staticFiles) { _, theme in theme })
        let renderer = try SiteRenderer(config: config, theme: theme, assets: assets)
        return Themed(aside: claimed.aside, assets: assets, renderer: renderer)
    }

    /// `state`: opens the state database; what a build that failed or was killed left pending describes no site.
    /// The cache folder is made here, the owner's alone, once the output's place has been checked.
    /// The database is closed again if clearing it fails, so a damaged one can be set aside (`stopping`).
    func openState(_ themed: Themed, downloader: Downloader, report: inout BuildReport) async throws -> Opened {
        try makeCacheFolder()
        let provider = makeProvider(downloader: downloader)
        report.source = provider.summary
        // A damaged database that holds `--offline`'s manifest is not set aside (`Build.stopping`).
        let database = try StateDatabase.open(
            folder: config.stateDirectory, warn: { progress(.warning($0)) },
            recover: !(options.offline && sourceIsRemote))
        do {
            try await database.clearPending()
        } catch {
            database.close()
            throw error
        }
        return Opened(themed: themed, provider: provider, database: database)
    }

    /// `manifest`: the provider's photo list, with hidden albums' photos given their token ids.
    func readManifest(_ opened: Opened, report: inout BuildReport) async throws -> Listing {
        var manifest = try await fetchManifest(opened.provider, database: opened.database)
        let hidden = try hideAlbums(&manifest)
        report.photosInManifest = manifest.photos.count + manifest.issues.count
        report.failures = manifestFailures(manifest)
        report.warnings = manifestWarnings(manifest)
        report.ignored = manifest.ignored
        if !manifest.ignored.isEmpty {
            progress(
                .step(
                    "manifest: \(manifest.ignored.count) files ignored on purpose (\(report.ignoredSummary)); --report lists them"
                ))
        }
        if manifest.photos.isEmpty && manifest.issues.isEmpty {
            report.emptySource = emptySourceWarning(opened.provider)
            progress(.warning(report.emptySource ?? ""))
        }
        return Listing(opened: opened, manifest: manifest, hidden: hidden)
    }

    /// `images` (listed): the manifest's photos wait in a file, each read when its turn comes
    /// (`PhotoList`), and leave the manifest. The file is written before the state is loaded, so
    /// the photos (about 0.6 KB each) and the state's blob records are never in memory together.
    func listPhotos(_ listing: inout Listing) throws -> Listed {
        let photos = try PhotoList(listing.manifest.photos, folder: config.stateDirectory)
        listing.manifest.photos = []
        return Listed(
            opened: listing.opened, photos: photos, albums: listing.manifest.albums, hidden: listing.hidden)
    }

    /// `state` (last build): what the last build left.
    func loadLastBuild(_ listed: Listed) async throws -> Loaded {
        let opened = listed.opened
        let snapshot = try await opened.database.loadSnapshot(source: opened.provider.summary)
        return Loaded(listed: listed, snapshot: snapshot)
    }

    /// `output` (staging): the folder beside the output that the new site is staged in.
    func beginStaging(_ loaded: Loaded) throws -> StagedWriter {
        try StagedWriter.begin(
            output: config.output, book: config.siteBook, protecting: config.protectedFolders,
            takeOver: options.takeOver, aside: loaded.listed.opened.themed.aside)
    }

    /// `state` (caches): the caches of derivatives and pages, and what images-only builds left in
    /// the cache. The blob records move out of `loaded`'s snapshot, so the caches hold the only copy.
    func prepareCaches(_ loaded: inout Loaded, writer: StagedWriter, report: inout BuildReport) async throws
        -> Ready
    {
        let (listed, opened) = (loaded.listed, loaded.listed.opened)
        let blobs = loaded.snapshot.takeBlobs()
        let consumed = try await opened.database.consumedLearntFiles()
        let state = BuildState(
            snapshot: loaded.snapshot, blobs: blobs, cache: config.cacheDirectory,
            shared: learntInCache(consumed: consumed), reuse: !options.rebuild, database: opened.database)
        report.learntFilesRead = state.shared.files
        report.learntFilesUnchanged = state.shared.unchanged
        return Ready(
            aside: opened.themed.aside, assets: opened.themed.assets, renderer: opened.themed.renderer,
            database: opened.database, photos: listed.photos, albums: listed.albums, hidden: listed.hidden,
            writer: writer, state: state, previousPagesKey: loaded.snapshot.pagesKey)
    }
}
