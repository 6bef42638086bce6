import Foundation

/// The config file exactly as written: every key optional, nothing resolved or checked yet.
package struct SiteConfigFile: Decodable {
    package var title: String?
    package var description: String?
    package var baseURL: String?
    package var output: String?
    package var templates: String?
    package var state: String?
    package var cache: String?
    package var pageSize: Int?
    package var sort: String?
    package var download: String?
    package var password: String?
    package var passwordEnv: String?
    package var source: Source?
    package var images: Images?
    package var network: Network?
    package var viewer: Viewer?
    package var language: String?
    package var map: Map?
    package var video: Video?
    package var deploy: Deploy?

    package struct Deploy: Decodable {
        package var target: String?
        package var endpoint: String?
        package var region: String?
        package var pathStyle: Bool?
        package var host: String?
        package var plan: String?
    }

    package struct Map: Decodable {
        package var tileURL: String?
        package var attribution: String?
    }

    package struct Source: Decodable {
        package var type: String
        package var path: String?
        package var url: String?
        package var endpoint: String?
        package var limit: Int?
        package var perPage: Int?
        package var allowInsecureHTTP: Bool?
        package var apiKey: String?
        package var method: String?
        package var params: [String: JSONValue]?
        package var consumerKey: String?
        package var feature: String?
        package var imageSizes: [Int]?
        package var applicationId: String?
        package var restApiKey: String?
        package var className: String?
        package var columns: [String: String]?
        package var order: String?
        package var `where`: JSONValue?
        package var apiKeyEnv: String?
        package var albums: [String]?
        package var peopleAsTags: Bool?

        package init(
            type: String, path: String? = nil, url: String? = nil, endpoint: String? = nil, limit: Int? = nil,
            perPage: Int? = nil, allowInsecureHTTP: Bool? = nil, apiKey: String? = nil, method: String? = nil,
            params: [String: JSONValue]? = nil, consumerKey: String? = nil, feature: String? = nil,
            imageSizes: [Int]? = nil, applicationId: String? = nil, restApiKey: String? = nil, className: String? = nil,
            columns: [String: String]? = nil, order: String? = nil
        ) {
            self.type = type
            self.path = path
            self.url = url
            self.endpoint = endpoint
            self.limit = limit
            self.perPage = perPage
            self.allowInsecureHTTP = allowInsecureHTTP
            self.apiKey = apiKey
            self.method = method
            self.params = params
            self.consumerKey = consumerKey
            self.feature = feature
            self.imageSizes = imageSizes
            self.applicationId = applicationId
            self.restApiKey = restApiKey
            self.className = className
            self.columns = columns
            self.order = order
        }
    }

    package struct Images: Decodable {
        package var thumbnail: Int?
        package var preview: Int?
        package var widths: [Int]?
        package var quality: Int?
        package var background: String?
        package var maxPixels: Int?
        package var publishOriginals: JSONValue?
        package var maxPixelsInFlight: Int?
        package var showLocation: Bool?
        package var linearLight: Bool?
        package var exifFields: [String]?
        package var webp: Bool?
        package var avif: Bool?
        package var sharpen: Double?
        package var gridSteps: Bool?
        package var raw: String?
        package var hdr: Bool?
    }

    package struct Video: Decodable {
        package var maxSeconds: Int?
        package var maxBytes: Int?
        package var maxPixels: Int?
        package var maxHeight: Int?
        package var quality: Int?
        package var maxBitrate: Int?
        package var livePhotos: Bool?
    }

    package struct Viewer: Decodable {
        package var slideshowSeconds: Double?
    }

    package struct Network: Decodable {
        package var timeoutSeconds: Int?
        package var maxDownloadBytes: Int?
        package var connectionsPerHost: Int?
        package var retries: Int?
    }

    /// The keys each object of the file may hold, for the unknown-key check. `$schema` names the
    /// JSON Schema for editors (`init` writes it); it means nothing to the build.
    package static let knownKeys: [String: [String]] = [
        "": [
            "title", "description", "baseURL", "output", "templates", "state", "cache", "pageSize", "sort", "download",
            "source",
            "password", "passwordEnv", "images", "network", "viewer", "language", "map", "deploy", "video", "$schema"
        ],
        "deploy": ["target", "endpoint", "region", "pathStyle", "host", "plan"],
        "map": ["tileURL", "attribution"],
        "images": [
            "thumbnail", "preview", "widths", "quality", "background", "maxPixels", "publishOriginals",
            "maxPixelsInFlight", "showLocation", "linearLight", "exifFields", "webp", "sharpen", "gridSteps",
            "raw", "avif", "hdr"
        ],
        "viewer": ["slideshowSeconds"],
        "video": ["maxSeconds", "maxBytes", "maxPixels", "maxHeight", "quality", "maxBitrate", "livePhotos"],
        "network": ["timeoutSeconds", "maxDownloadBytes", "connectionsPerHost", "retries"],
        "source/folder": ["type", "path", "peopleAsTags"],
        "source/manifest": ["type", "path", "url", "allowInsecureHTTP"],
        "source/flickr": ["type", "endpoint", "limit", "perPage", "allowInsecureHTTP", "apiKey", "method", "params"],
        "source/500px": [
            "type", "endpoint", "limit", "perPage", "allowInsecureHTTP", "consumerKey", "feature", "params",
            "imageSizes"
        ],
        "source/parse": [
            "type", "endpoint", "limit", "perPage", "allowInsecureHTTP", "applicationId", "restApiKey",
            "className", "columns", "order", "where"
        ],
        "source/immich": ["type", "url", "apiKeyEnv", "albums", "limit", "allowInsecureHTTP"]
    ]
}
