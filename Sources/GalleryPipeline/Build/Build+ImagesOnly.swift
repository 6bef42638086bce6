import Foundation
import GalleryFetch
import GalleryImaging
import GalleryKeys
import GalleryModel
import GalleryProviders
import GalleryStore

/// `build --images-only [--shard K/N]`: the steps of a build that makes images into the cache and
/// publishes nothing (see `Build` for the order of a full build). Its steps run through the same
/// `StepClock` as a full build's, each taking the values the ones before it returned.
extension Build {
    /// An images-only build (`build --images-only [--shard K/N]`), which renders and publishes nothing:
    ///
    /// 1. `manifest` ask the provider for the photo list and keep the photos of the slice (`Shard`)
    /// 2. `state`    read the learnt files of the cache (earlier runs of this slice included); no state
    ///               database is opened, so the site's state is neither waited for nor changed
    /// 3. `images`   per photo of the slice, as in a full build, into the cache's `images/` only
    /// 4. `learnt`   write what the slice learnt to the cache's `learnt/shard-K-of-N.json`
    ///
    /// It takes no lock: all it writes is content-addressed or its own file, written atomically, so
    /// slices may run side by side over one site folder and one cache.
    func runImagesOnly(_ shard: Shard, downloader: Downloader) async throws -> BuildReport {
        var clock = StepClock()
        var report = BuildReport()
        report.shard = shard.description
        report.forced = options.rebuild
        let provider = makeProvider(downloader: downloader)
        report.source = provider.summary
        let root = SourceRoot(config.source)
        var manifest = try await clock.step(.manifest) { try await provider.fetchManifest() }
        _ = try await clock.step(.manifest) { try hideAlbums(&manifest) }  // the same ids, so the same photo folders
        let slice = manifest.photos.filter { shard.contains(locationKey: root.key($0.image.description)) }
        report.photosInManifest = manifest.photos.count + manifest.issues.count
        report.photosInSlice = slice.count
        // Entries the manifest could not use have no original to slice by: every shard reports them,
        // as the plain build after the shards will.
        report.failures = manifestFailures(manifest)
        report.warnings = manifestWarnings(manifest)
        progress(
            .step(
                "manifest: \(manifest.photos.count) photos from \(provider.summary), \(slice.count) in shard \(shard)"))

        try makeCacheFolder()
        let state = try await clock.step(.state) {
            BuildState(
                snapshot: StateSnapshot(), blobs: (DigestTable(), DigestTable()), cache: config.cacheDirectory,
                shared: learntInCache(),
                reuse: !options.rebuild)
        }
        report.learntFilesRead = state.shared.files
        let photos = PhotoPublisher(
            fetcher: OriginalFetcher(downloader: downloader, maxBytes: config.network.maxDownloadBytes),
            processor: ImageProcessor(settings: config.images), writer: nil,
            publishOriginals: config.images.publishOriginals, state: state,
            videos: VideoWork(config.video, options: options))
        let outcome = try await clock.step(.images) {
            try await publishImages(
                slice, with: photos, state: state, downloader: downloader, report: &report,
                noneProcessed: "none of the \(slice.count) photos of shard \(shard) could be processed "
                    + "(see the lines above)")
        }
        let file = try await clock.step(.learnt) {
            try SharedCache(folder: config.cacheDirectory).write(shard, rows: outcome.rows, state: state, root: root)
        }
        report.learntFile = file.path
        progress(.step("learnt: \(file.path)"))
        return finished(report, clock)
    }

    /// What images-only builds left in the cache; nothing with `--rebuild`. An unreadable learnt file
    /// is a warning, and its photos are processed again.
    /// - Parameter consumed: Learnt files the state already took in (`StateDatabase.consumedLearntFiles`),
    ///   which are not read again while they stay as they are.
    func learntInCache(consumed: [String: String] = [:]) -> SharedLearnt {
        guard !options.rebuild else { return SharedLearnt() }
        return SharedCache(folder: config.cacheDirectory).load(
            root: SourceRoot(config.source), consumed: consumed,
            warn: { progress(.warning("\($0)")) })
    }
}

extension Build {
    /// Creates the cache folder as the owner's alone, or narrows an earlier one's modes: it holds
    /// protected albums' derivatives and pages in plaintext (`PrivateFolder`).
    /// - Throws: `StoreError` naming the folder.
    func makeCacheFolder() throws {
        do {
            try PrivateFolder.make(config.cacheDirectory)
        } catch {
            throw StoreError.writing(config.cacheDirectory.path, error)
        }
    }
}
