import Foundation
import GalleryModel

/// A site's validated configuration, with every relative path already resolved.
///
/// Built by `SiteConfig.load(from:)`; all defaults live in `SiteConfig.Defaults`.
public struct SiteConfig: Sendable {
    package var title: String
    package var description: String
    /// The absolute URL the site is published at, ending in `/`: canonical links, OpenGraph, JSON-LD,
    /// the feed, the sitemap and `404.html` use it. Internal links never do.
    package var baseURL: URL?
    /// The folder the site is published into.
    public var output: URL
    /// The site's own templates folder; files in it override the built-in theme file by file.
    public var templates: URL
    /// Where build state and caches live (`.galleryssg` beside the config by default).
    public var stateDirectory: URL
    /// Where the caches live (`SharedCache`): the state folder's `cache/` unless the config's `cache`
    /// or `build --cache` names a folder, such as one on storage that several machines share.
    public var cacheDirectory: URL
    package var pageSize: Int
    public var source: SourceConfig
    package var images: ImageSettings
    public var network: NetworkSettings
    /// Secrets from the config, to keep out of every message, and the variables they came from.
    public var credentials: Credentials
    /// The config file this was read from; relative paths were resolved against its folder.
    public var configFile: URL
    /// The order of the home grid and prev/next, and of albums and tags without their own `sort`.
    package var sort: PhotoSort = Defaults.sort
    /// What visitors may download where an album says nothing (`download`): zips, photos or nothing.
    package var download: DownloadSetting = .off
    /// A password for the whole site (`password` or `passwordEnv`): every page and file is published
    /// encrypted (docs/protected-albums.md); nil for a public site.
    package var password: SitePassword?
    /// How photo pages and grids behave in the browser (`viewer`).
    package var viewer = ViewerSettings()
    /// The theme's language (`<html lang>`, dates, `i18n/<language>.json`).
    package var language: String = Defaults.language
    /// The map page's tiles (used with `images.showLocation`).
    package var map = MapSettings()
    /// Where `galleryssg deploy` publishes when the command line names no target (`deploy`).
    public var deploy = DeploySettings()
    /// How video clips are published (`video`).
    package var video = VideoSettings()
    /// Whether a folder source tags each photo with the people its Google Takeout sidecar names
    /// (`source.peopleAsTags`); off by default, as names of people are theirs to publish.
    package var peopleAsTags = Defaults.peopleAsTags

    /// The folder holding the config file.
    package var siteDirectory: URL { configFile.deletingLastPathComponent() }
}

/// Where the site's password comes from: the config itself, or an environment variable named there
/// (so that no secret need sit in a committed file).
package enum SitePassword: Sendable, Equatable {
    case literal(String)
    case environment(String)
}

/// Where the photo manifest comes from.
public enum SourceConfig: Sendable, Equatable {
    /// A photo library folder, searched recursively; each folder is an album (see `FolderProvider`).
    case folder(URL)
    /// A galleryssg manifest file on disk.
    case manifestFile(URL)
    /// A galleryssg manifest fetched over HTTP(S).
    case manifestURL(URL)
    case flickr(FlickrSource)
    case fiveHundredPx(FiveHundredPxSource)
    case parse(ParseSource)
    case immich(ImmichSource)
}

/// Sizes and encoding of the derivatives made from each original.
package struct ImageSettings: Sendable, Equatable {
    /// Long edge of the grid thumbnail, in pixels.
    package var thumbnail: Int
    /// Long edge of the photo-page preview, in pixels.
    package var preview: Int
    /// Extra widths offered in `srcset`, in pixels; those at or above the preview width are dropped.
    package var widths: [Int]
    /// JPEG quality, 1–100.
    package var quality: Int
    /// The colour transparent PNG pixels are composited over, as 8-bit RGB.
    package var background: RGB
    /// The most pixels an original may have; larger ones are skipped before decoding.
    package var maxPixels: Int
    /// Whether and how a local original is published for the "full size" link.
    package var publishOriginals: OriginalsPolicy
    /// Decoded pixels held in memory at once across parallel jobs; bounds peak memory. Nil (the
    /// default): worked out from the memory available when the build starts (`PixelBudget`).
    package var maxPixelsInFlight: Int?
    /// Whether photo pages show where a photo was taken (off by default, for privacy).
    package var showLocation: Bool
    /// Resample in linear light rather than on sRGB-encoded values.
    package var linearLight: Bool
    /// Which camera fields photo pages show, in order (`SiteConfig.exifFieldNames`).
    package var exifFields: [ExifField]
    /// Also encode every derivative as WebP, offered to browsers through `<picture>`.
    package var webp: Bool = false
    /// Also encode every derivative as AVIF (AV1 through libheif), offered before WebP and JPEG.
    package var avif: Bool = SiteConfig.Defaults.avif
    /// Unsharp-mask amount applied after a reduction of 3× or more (0 turns it off).
    package var sharpen: Double = 0
    /// Whether the grid gets sizes of its own between the thumbnail and 600 px tall
    /// (`DerivativePlan.gridSteps`), so that a phone finds a file close to what its tiles need.
    package var gridSteps: Bool = true
    /// What a camera raw file becomes (`images.raw`): its embedded preview, a LibRaw development, or nothing.
    package var raw: RawPolicy = SiteConfig.Defaults.raw
    /// Whether a JPEG's HDR gain map (Ultra HDR, ISO 21496-1, Apple's) is carried into its JPEG
    /// derivatives and its published original; off publishes SDR only.
    package var hdr: Bool = SiteConfig.Defaults.hdr

    package init(
        thumbnail: Int, preview: Int, widths: [Int], quality: Int, background: RGB, maxPixels: Int,
        publishOriginals: OriginalsPolicy, maxPixelsInFlight: Int? = nil, showLocation: Bool, linearLight: Bool,
        exifFields: [ExifField], webp: Bool = false, sharpen: Double = 0, gridSteps: Bool = true,
        raw: RawPolicy = SiteConfig.Defaults.raw, avif: Bool = SiteConfig.Defaults.avif,
        hdr: Bool = SiteConfig.Defaults.hdr
    ) {
        self.thumbnail = thumbnail
        self.preview = preview
        self.widths = widths
        self.quality = quality
        self.background = background
        self.maxPixels = maxPixels
        self.publishOriginals = publishOriginals
        self.maxPixelsInFlight = maxPixelsInFlight
        self.showLocation = showLocation
        self.linearLight = linearLight
        self.exifFields = exifFields
        self.webp = webp
        self.avif = avif
        self.sharpen = sharpen
        self.gridSteps = gridSteps
        self.raw = raw
        self.hdr = hdr
    }
}

/// The site's script settings (`viewer`): the slideshow.
package struct ViewerSettings: Sendable, Equatable {
    /// Seconds each photo is shown in the slideshow (`viewer.slideshowSeconds`).
    package var slideshowSeconds: Double = SiteConfig.Defaults.slideshowSeconds

    package init(slideshowSeconds: Double = SiteConfig.Defaults.slideshowSeconds) {
        self.slideshowSeconds = slideshowSeconds
    }
}

/// The map page's tile server (`map.tileURL`) and any credit it needs besides OpenStreetMap's.
package struct MapSettings: Sendable, Equatable {
    /// A tile URL template with `{z}`, `{x}` and `{y}` (and optionally `{s}` and `{r}`).
    package var tileURL: String = SiteConfig.Defaults.mapTileURL
    /// Plain text shown after the OpenStreetMap credit (the tile provider's own, say).
    package var attribution: String?
}

/// How originals and remote manifests are fetched.
public struct NetworkSettings: Sendable, Equatable {
    /// Allow plain `http://` to hosts other than loopback (`source.allowInsecureHTTP`).
    package var allowHTTP: Bool
    /// Seconds before a request is abandoned.
    package var timeoutSeconds: Int
    /// The largest response body accepted, in bytes.
    package var maxDownloadBytes: Int
    /// Requests in flight to one host at most.
    public var connectionsPerHost: Int
    /// Extra attempts after a timeout, connection error, 5xx or 429.
    package var retries: Int
    /// First backoff delay in seconds; it doubles with each attempt, with jitter.
    package var retryBaseDelay: Double

    package init(
        allowHTTP: Bool = false, timeoutSeconds: Int = SiteConfig.Defaults.timeoutSeconds,
        maxDownloadBytes: Int = SiteConfig.Defaults.maxDownloadBytes,
        connectionsPerHost: Int = SiteConfig.Defaults.connectionsPerHost, retries: Int = SiteConfig.Defaults.retries,
        retryBaseDelay: Double = SiteConfig.Defaults.retryBaseDelay
    ) {
        self.allowHTTP = allowHTTP
        self.timeoutSeconds = timeoutSeconds
        self.maxDownloadBytes = maxDownloadBytes
        self.connectionsPerHost = connectionsPerHost
        self.retries = retries
        self.retryBaseDelay = retryBaseDelay
    }
}

extension SiteConfig {
    /// Every default value of the config, in one place.
    public enum Defaults {
        public static let fileName = "site-config.json"
        package static let title = "Photo gallery"
        package static let description = ""
        package static let output = "public"
        package static let templates = "Templates"
        package static let state = ".galleryssg"
        /// The cache folder's place inside the state folder when the config names none.
        static let cacheInState = "cache"
        package static let pageSize = 24
        /// Newest first by date taken; photos without a date follow in source order.
        package static let sort = PhotoSort.newestFirst
        package static let thumbnail = 400
        package static let preview = 1600
        package static let widths = [480, 800, 1200]
        package static let quality = 82
        package static let background = "#ffffff"
        package static let maxPixels = 100_000_000
        package static let publishOriginals = OriginalsPolicy.stripped
        package static let showLocation = false
        package static let peopleAsTags = false
        package static let linearLight = true
        package static let exifFields = ExifField.allCases
        package static let webp = false
        package static let avif = false
        package static let hdr = true
        package static let sharpen = 0.0
        package static let gridSteps = true
        package static let raw = RawPolicy.preview
        package static let slideshowSeconds = 5.0
        /// The slideshow's shortest and longest time per photo, in seconds.
        static let slideshowRange = 1.0...120.0
        package static let language = "en"
        /// OpenStreetMap's standard tiles (https://operations.osmfoundation.org/policies/tiles/).
        package static let mapTileURL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        package static let allowInsecureHTTP = false
        public static let connectionsPerHost = 6
        package static let retries = 3
        package static let retryBaseDelay = 0.5
        package static let remoteLimit = 500
        package static let flickrMethod = "flickr.interestingness.getList"
        package static let flickrPerPage = 100
        package static let fiveHundredPxFeature = "popular"
        package static let fiveHundredPxPerPage = 100
        package static let fiveHundredPxImageSizes = [2048, 1600, 1080, 6, 5, 4]
        package static let parseClassName = "Resource"
        package static let parseOrder = "createdAt,objectId"
        package static let parsePerPage = 100
        package static let timeoutSeconds = 60
        package static let maxDownloadBytes = 200 * 1024 * 1024
        /// The plan assumed for a host whose plans have other limits (`deploy.plan`): the free one.
        package static let hostPlan = HostPlan.free
    }

    /// The source types a config may name, in the order error messages list them.
    package static let sourceTypes = ["flickr", "500px", "parse", "immich", "manifest", "folder"]
}

/// What a camera raw file (DNG, CR2, NEF, …) becomes (`images.raw`). A raw file beside a JPEG, HEIC,
/// TIFF or PNG of the same name is never published in any case: that file is the photographer's edit.
package enum RawPolicy: String, Sendable, Equatable, Codable, CaseIterable {
    /// The JPEG preview the camera embedded, when it is at least as large as the largest derivative
    /// (and has the raw's shape); else the raw is developed (`"preview"`, the default: fast, and the
    /// camera's own rendering).
    case preview
    /// Always developed by LibRaw with the camera's white balance, in sRGB (`"develop"`).
    case develop
    /// Not published; counted as ignored on purpose (`"skip"`).
    case skip
}

/// What the "full size" link of a local photo gets (`images.publishOriginals`).
package enum OriginalsPolicy: String, Sendable, Equatable, Codable {
    /// No original: the link shows the largest derivative (`false`).
    case none
    /// JPEG originals with their pixels untouched but without GPS, serial numbers, XMP and IPTC;
    /// other formats link the largest derivative instead (`true`, the default).
    case stripped
    /// The file exactly as it is on disk, with every tag it carries (`"as-is"`).
    case asIs = "as-is"
}
