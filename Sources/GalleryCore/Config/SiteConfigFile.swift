import Foundation

/// The config file exactly as written: every key optional, nothing resolved or checked yet.
struct SiteConfigFile: Decodable {
    var title: String?
    var description: String?
    var baseURL: String?
    var output: String?
    var templates: String?
    var pageSize: Int?
    var source: Source?
    var images: Images?
    var network: Network?

    struct Source: Decodable {
        var type: String
        var path: String?
        var url: String?
    }

    struct Images: Decodable {
        var thumbnail: Int?
        var preview: Int?
        var widths: [Int]?
        var quality: Int?
        var background: String?
        var maxPixels: Int?
        var publishOriginals: Bool?
    }

    struct Network: Decodable {
        var allowHTTP: Bool?
        var timeoutSeconds: Int?
        var maxDownloadBytes: Int?
    }

    /// The keys each object of the file may hold, for the unknown-key check.
    static let knownKeys: [String: [String]] = [
        "": ["title", "description", "baseURL", "output", "templates", "pageSize", "source", "images", "network"],
        "images": ["thumbnail", "preview", "widths", "quality", "background", "maxPixels", "publishOriginals"],
        "network": ["allowHTTP", "timeoutSeconds", "maxDownloadBytes"],
        "source/folder": ["type", "path"],
        "source/manifest": ["type", "path", "url"],
    ]
}
