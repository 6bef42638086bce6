import Foundation
import GalleryModel

/// A site's validated configuration, with every relative path already resolved.
///
/// Built by `SiteConfig.load(from:)`; all defaults live in `SiteConfig.Defaults`.
public struct SiteConfig: Sendable {
    public var title: String
    public var description: String
    /// The absolute URL the site is published at, ending in `/`: canonical links, OpenGraph, JSON-LD,
    /// the feed, the sitemap and `404.html` use it. Internal links never do.
    public var baseURL: URL?
    /// The folder the site is published into.
    public var output: URL
    /// The site's own templates folder; files in it override the built-in theme file by file.
    public var templates: URL
    /// Where build state and caches live (`.galleryssg` beside the config by default).
    public var stateDirectory: URL
    /// Where the caches live (`SharedCache`): the state folder's `cache/` unless the config's `cache`
    /// or `build --cache` names a folder, such as one on storage that several machines share.
    public var cacheDirectory: URL
    public var pageSize: Int
    public var source: SourceConfig
    public var images: ImageSettings
    public var network: NetworkSettings
    /// Secrets from the config, to keep out of every message, and the variables they came from.
    public var credentials: Credentials
    /// The config file this was read from; relative paths were resolved against its folder.
    public var configFile: URL
    /// The order of the home grid and prev/next, and of albums and tags without their own `sort`.
    public var sort: PhotoSort = Defaults.sort
    /// What visitors may download where an album says nothing (`download`): zips, photos or nothing.
    public var download: DownloadSetting = .off
    /// A password for the whole site (`password` or `passwordEnv`): every page and file is published
    /// encrypted (docs/protected-albums.md); nil for a public site.
    public var password: SitePassword?
    /// How photo pages and grids behave in the browser (`viewer`).
    public var viewer = ViewerSettings()
    /// The theme's language (`<html lang>`, dates, `i18n/<language>.json`).
    public var language: String = Defaults.language
    /// The map page's tiles (used with `images.showLocation`).
    public var map = MapSettings()
    /// Where `galleryssg deploy` publishes when the command line names no target (`deploy`).
    public var deploy = DeploySettings()
    /// How video clips are published (`video`).
    public var video = VideoSettings()

    /// The folder holding the config file.
    public var siteDirectory: URL { configFile.deletingLastPathComponent() }
}

/// Where the site's password comes from: the config itself, or an environment variable named there
/// (so that no secret need sit in a committed file).
public enum SitePassword: Sendable, Equatable {
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
}

/// Sizes and encoding of the derivatives made from each original.
public struct ImageSettings: Sendable, Equatable {
    /// Long edge of the grid thumbnail, in pixels.
    public var thumbnail: Int
    /// Long edge of the photo-page preview, in pixels.
    public var preview: Int
    /// Extra widths offered in `srcset`, in pixels; those at or above the preview width are dropped.
    public var widths: [Int]
    /// JPEG quality, 1–100.
    public var quality: Int
    /// The colour transparent PNG pixels are composited over, as 8-bit RGB.
    public var background: RGB
    /// The most pixels an original may have; larger ones are skipped before decoding.
    public var maxPixels: Int
    /// Whether and how a local original is published for the "full size" link.
    public var publishOriginals: OriginalsPolicy
    /// Decoded pixels held in memory at once across parallel jobs; bounds peak memory. Nil (the
    /// default): worked out from the memory available when the build starts (`PixelBudget`).
    public var maxPixelsInFlight: Int?
    /// Whether photo pages show where a photo was taken (off by default, for privacy).
    public var showLocation: Bool
    /// Resample in linear light rather than on sRGB-encoded values.
    public var linearLight: Bool
    /// Which camera fields photo pages show, in order (`SiteConfig.exifFieldNames`).
    public var exifFields: [ExifField]
    /// Also encode every derivative as WebP, offered to browsers through `<picture>`.
    public var webp: Bool = false
    /// Also encode every derivative as AVIF (AV1 through libheif), offered before WebP and JPEG.
    public var avif: Bool = SiteConfig.Defaults.avif
    /// Unsharp-mask amount applied after a reduction of 3× or more (0 turns it off).
    public var sharpen: Double = 0
    /// Whether the grid gets sizes of its own between the thumbnail and 600 px tall
    /// (`DerivativePlan.gridSteps`), so that a phone finds a file close to what its tiles need.
    public var gridSteps: Bool = true
    /// What a camera raw file becomes (`images.raw`): its embedded preview, a LibRaw development, or nothing.
    public var raw: RawPolicy = SiteConfig.Defaults.raw

    public init(
        thumbnail: Int, preview: Int, widths: [Int], quality: Int, background: RGB, maxPixels: Int,
        publishOriginals: OriginalsPolicy, maxPixelsInFlight: Int? = nil, showLocation: Bool, linearLight: Bool,
        exifFields: [ExifField], webp: Bool = false, sharpen: Double = 0, gridSteps: Bool = true,
        raw: RawPolicy = SiteConfig.Defaults.raw, avif: Bool = SiteConfig.Defaults.avif
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
    }
}

/// The site's script settings (`viewer`): the slideshow.
public struct ViewerSettings: Sendable, Equatable {
    /// Seconds each photo is shown in the slideshow (`viewer.slideshowSeconds`).
    public var slideshowSeconds: Double = SiteConfig.Defaults.slideshowSeconds

    public init(slideshowSeconds: Double = SiteConfig.Defaults.slideshowSeconds) {
        self.slideshowSeconds = slideshowSeconds
    }
}

/// The map page's tile server (`map.tileURL`) and any credit it needs besides OpenStreetMap's.
public struct MapSettings: Sendable, Equatable {
    /// A tile URL template with `{z}`, `{x}` and `{y}` (and optionally `{s}` and `{r}`).
    public var tileURL: String = SiteConfig.Defaults.mapTileURL
    /// Plain text shown after the OpenStreetMap credit (the tile provider's own, say).
    public var attribution: String?
}

/// An 8-bit sRGB colour.
public struct RGB: Sendable, Equatable {
    public var red: UInt8, green: UInt8, blue: UInt8
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}

/// How originals and remote manifests are fetched.
public struct NetworkSettings: Sendable, Equatable {
    /// Allow plain `http://` to hosts other than loopback (`source.allowInsecureHTTP`).
    public var allowHTTP: Bool
    /// Seconds before a request is abandoned.
    public var timeoutSeconds: Int
    /// The largest response body accepted, in bytes.
    public var maxDownloadBytes: Int
    /// Requests in flight to one host at most.
    public var connectionsPerHost: Int
    /// Extra attempts after a timeout, connection error, 5xx or 429.
    public var retries: Int
    /// First backoff delay in seconds; it doubles with each attempt, with jitter.
    public var retryBaseDelay: Double

    public init(
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
        public static let title = "Photo gallery"
        public static let description = ""
        public static let output = "public"
        public static let templates = "Templates"
        public static let state = ".galleryssg"
        /// The cache folder's place inside the state folder when the config names none.
        public static let cacheInState = "cache"
        public static let pageSize = 24
        /// Newest first by date taken; photos without a date follow in source order.
        public static let sort = PhotoSort.newestFirst
        public static let thumbnail = 400
        public static let preview = 1600
        public static let widths = [480, 800, 1200]
        public static let quality = 82
        public static let background = "#ffffff"
        public static let maxPixels = 100_000_000
        public static let publishOriginals = OriginalsPolicy.stripped
        public static let showLocation = false
        public static let linearLight = true
        public static let exifFields = ExifField.allCases
        public static let webp = false
        public static let avif = false
        public static let sharpen = 0.0
        public static let gridSteps = true
        public static let raw = RawPolicy.preview
        public static let slideshowSeconds = 5.0
        /// The slideshow's shortest and longest time per photo, in seconds.
        public static let slideshowRange = 1.0...120.0
        public static let language = "en"
        /// OpenStreetMap's standard tiles (https://operations.osmfoundation.org/policies/tiles/).
        public static let mapTileURL = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
        public static let allowInsecureHTTP = false
        public static let connectionsPerHost = 6
        public static let retries = 3
        public static let retryBaseDelay = 0.5
        public static let remoteLimit = 500
        public static let flickrMethod = "flickr.interestingness.getList"
        public static let flickrPerPage = 100
        public static let fiveHundredPxFeature = "popular"
        public static let fiveHundredPxPerPage = 100
        public static let fiveHundredPxImageSizes = [2048, 1600, 1080, 6, 5, 4]
        public static let parseClassName = "Resource"
        public static let parseOrder = "createdAt,objectId"
        public static let parsePerPage = 100
        public static let timeoutSeconds = 60
        public static let maxDownloadBytes = 200 * 1024 * 1024
    }

    /// The source types a config may name, in the order error messages list them.
    public static let sourceTypes = ["flickr", "500px", "parse", "manifest", "folder"]
}

/// What a camera raw file (DNG, CR2, NEF, …) becomes (`images.raw`). A raw file beside a JPEG, HEIC,
/// TIFF or PNG of the same name is never published in any case: that file is the photographer's edit.
public enum RawPolicy: String, Sendable, Equatable, Codable, CaseIterable {
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
public enum OriginalsPolicy: String, Sendable, Equatable, Codable {
    /// No original: the link shows the largest derivative (`false`).
    case none
    /// JPEG originals with their pixels untouched but without GPS, serial numbers, XMP and IPTC;
    /// other formats link the largest derivative instead (`true`, the default).
    case stripped
    /// The file exactly as it is on disk, with every tag it carries (`"as-is"`).
    case asIs = "as-is"
}
