import GalleryConfig
import GalleryFetch
/// Picks the provider a config's `source` names.
public enum ProviderFactory {
    /// - Parameters:
    ///   - raw: What the folder source does with camera raw files (`images.raw`).
    ///   - livePhotos: Whether it publishes a Live Photo's clip with its still (`video.livePhotos`).
    public static func provider(for source: SourceConfig, downloader: Downloader, credentials: Credentials,
                                raw: RawPolicy = SiteConfig.Defaults.raw, livePhotos: Bool = true) -> any PhotoProvider {
        switch source {
        case .folder(let folder): return FolderProvider(folder: folder, raw: raw, livePhotos: livePhotos)
        case .manifestFile(let file): return ManifestProvider(location: .file(file), downloader: downloader)
        case .manifestURL(let url): return ManifestProvider(location: .url(url), downloader: downloader)
        case .flickr(let flickr): return FlickrProvider(source: flickr, downloader: downloader, credentials: credentials)
        case .fiveHundredPx(let feed): return FiveHundredPxProvider(source: feed, downloader: downloader, credentials: credentials)
        case .parse(let parse): return ParseProvider(source: parse, downloader: downloader, credentials: credentials)
        }
    }
}
