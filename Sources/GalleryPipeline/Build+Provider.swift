import Foundation
import GalleryFetch
import GalleryImaging
import GalleryProviders

extension Build {
    /// The provider the config's source names. The folder source pairs renamed Live Photos by the
    /// content identifiers GalleryImaging reads (a HEIC's EXIF by its codec, a clip's by ffprobe).
    package func makeProvider(downloader: Downloader) -> any PhotoProvider {
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
}
