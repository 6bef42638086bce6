import Foundation
import GalleryFetch
import GalleryImaging
import GalleryProviders
import GalleryStore

extension Build {
    /// The provider the config's source names. The folder source pairs renamed Live Photos by the
    /// content identifiers GalleryImaging reads (a HEIC's EXIF by its codec, a clip's by ffprobe).
    func makeProvider(downloader: Downloader) -> any PhotoProvider {
        var clip: (@Sendable (URL) async -> String?)?
        if let ffprobe = MediaTool.find("ffprobe", path: options.toolPath) {
            clip = { file in await LivePhotoIdentifier.ofClip(file, ffprobe: ffprobe) }
        }
        let reader = LivePhotoReader(still: { LivePhotoIdentifier.ofStill($0) }, clip: clip)
        return ProviderFactory.provider(
            for: config.source, downloader: downloader, credentials: config.credentials,
            raw: config.images.raw, livePhotos: config.video.livePhotos,
            stateDirectory: config.stateDirectory, livePhotoReader: reader, peopleAsTags: config.peopleAsTags)
    }

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
