import Foundation
import GalleryConfig
import GalleryFetch

/// Picks the provider a config's `source` names.
package enum ProviderFactory {
    /// - Parameters:
    ///   - raw: What the folder source does with camera raw files (`images.raw`).
    ///   - livePhotos: Whether it publishes a Live Photo's clip with its still (`video.livePhotos`).
    ///   - stateDirectory: Where the folder source keeps the Live Photo identifiers it read; nil pairs by name only.
    ///   - livePhotoReader: How the folder source reads those identifiers; nil pairs by name only.
    ///   - peopleAsTags: Whether the folder source tags photos with the people Google Takeout names.
    package static func provider(
        for source: SourceConfig, downloader: Downloader, credentials: Credentials,
        raw: RawPolicy = SiteConfig.Defaults.raw, livePhotos: Bool = true, stateDirectory: URL? = nil,
        livePhotoReader: LivePhotoReader? = nil, peopleAsTags: Bool = SiteConfig.Defaults.peopleAsTags
    ) -> any PhotoProvider {
        switch source {
        case .folder(let folder):
            let pairing = stateDirectory.flatMap { folder in
                livePhotoReader.map {
                    LivePhotoPairing(
                        cacheFile: folder.appendingPathComponent("live-photos.json"), reader: $0, publish: livePhotos)
                }
            }
            var provider = FolderProvider(folder: folder, raw: raw, livePhotos: livePhotos, pairing: pairing)
            provider.peopleAsTags = peopleAsTags
            return provider
        case .manifestFile(let file): return ManifestProvider(location: .file(file), downloader: downloader)
        case .manifestURL(let url): return ManifestProvider(location: .url(url), downloader: downloader)
        case .flickr(let flickr):
            return FlickrProvider(source: flickr, downloader: downloader, credentials: credentials)
        case .fiveHundredPx(let feed):
            return FiveHundredPxProvider(source: feed, downloader: downloader, credentials: credentials)
        case .parse(let parse): return ParseProvider(source: parse, downloader: downloader, credentials: credentials)
        case .immich(let immich):
            return ImmichProvider(source: immich, downloader: downloader, credentials: credentials)
        }
    }
}
