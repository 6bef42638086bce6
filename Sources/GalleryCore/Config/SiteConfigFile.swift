import Foundation

/// The config file exactly as written: every key optional, nothing resolved or checked yet.
struct SiteConfigFile: Decodable {
    var title: String?
    var description: String?
    var baseURL: String?
    var output: String?
    var templates: String?
    var state: String?
    var cache: String?
    var pageSize: Int?
    var sort: String?
    var source: Source?
    var images: Images?
    var network: Network?
    var viewer: Viewer?
    var language: String?
    var map: Map?
    var deploy: Deploy?

    struct Deploy: Decodable {
        var target: String?
        var endpoint: String?
        var region: String?
        var pathStyle: Bool?
    }

    struct Map: Decodable {
        var tileURL: String?
        var attribution: String?
    }

    struct Source: Decodable {
        var type: String
        var path: String?
        var url: String?
        var endpoint: String?
        var limit: Int?
        var perPage: Int?
        var allowInsecureHTTP: Bool?
        var apiKey: String?
        var method: String?
        var params: [String: JSONValue]?
        var consumerKey: String?
        var feature: String?
        var imageSizes: [Int]?
        var applicationId: String?
        var restApiKey: String?
        var className: String?
        var columns: [String: String]?
        var order: String?
        var `where`: JSONValue?
    }

    struct Images: Decodable {
        var thumbnail: Int?
        var preview: Int?
        var widths: [Int]?
        var quality: Int?
        var background: String?
        var maxPixels: Int?
        var publishOriginals: JSONValue?
        var maxPixelsInFlight: Int?
        var showLocation: Bool?
        var linearLight: Bool?
        var exifFields: [String]?
        var webp: Bool?
        var sharpen: Double?
        var gridSteps: Bool?
    }

    struct Viewer: Decodable {
        var slideshowSeconds: Double?
    }

    struct Network: Decodable {
        var timeoutSeconds: Int?
        var maxDownloadBytes: Int?
        var connectionsPerHost: Int?
        var retries: Int?
    }

    /// The keys each object of the file may hold, for the unknown-key check.
    static let knownKeys: [String: [String]] = [
        "": ["title", "description", "baseURL", "output", "templates", "state", "cache", "pageSize", "sort", "source",
             "images", "network", "viewer", "language", "map", "deploy"],
        "deploy": ["target", "endpoint", "region", "pathStyle"],
        "map": ["tileURL", "attribution"],
        "images": ["thumbnail", "preview", "widths", "quality", "background", "maxPixels", "publishOriginals",
                   "maxPixelsInFlight", "showLocation", "linearLight", "exifFields", "webp", "sharpen", "gridSteps"],
        "viewer": ["slideshowSeconds"],
        "network": ["timeoutSeconds", "maxDownloadBytes", "connectionsPerHost", "retries"],
        "source/folder": ["type", "path"],
        "source/manifest": ["type", "path", "url", "allowInsecureHTTP"],
        "source/flickr": ["type", "endpoint", "limit", "perPage", "allowInsecureHTTP", "apiKey", "method", "params"],
        "source/500px": ["type", "endpoint", "limit", "perPage", "allowInsecureHTTP", "consumerKey", "feature", "params",
                         "imageSizes"],
        "source/parse": ["type", "endpoint", "limit", "perPage", "allowInsecureHTTP", "applicationId", "restApiKey",
                         "className", "columns", "order", "where"],
    ]
}
