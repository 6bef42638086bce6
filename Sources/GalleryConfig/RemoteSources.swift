import Foundation

/// `{"type": "flickr", …}`: Flickr's REST API, or its key-less public feed with `"method": "feed"`.
public struct FlickrSource: Sendable, Equatable {
    package static let restEndpoint = URL(string: "https://api.flickr.com/services/rest/")!
    package static let feedEndpoint = URL(string: "https://www.flickr.com/services/feeds/photos_public.gne")!
    static let methods = [
        "flickr.interestingness.getList", "flickr.photos.search", "flickr.people.getPublicPhotos",
        "flickr.photosets.getPhotos", "flickr.photos.getRecent", "feed"
    ]

    package var endpoint: URL
    package var apiKey: String?
    /// A REST method name, or `feed` for `photos_public.gne`.
    package var method: String
    /// Extra query parameters, such as `tags`, `user_id`, `photoset_id`, `sort` or `date`.
    package var params: [String: String]
    package var limit: Int?
    package var perPage: Int
    package var isFeed: Bool { method == "feed" }

    package init(
        endpoint: URL, apiKey: String? = nil, method: String, params: [String: String], limit: Int? = nil, perPage: Int
    ) {
        self.endpoint = endpoint
        self.apiKey = apiKey
        self.method = method
        self.params = params
        self.limit = limit
        self.perPage = perPage
    }
}

/// `{"type": "500px", …}`: the 500px API v1 photo streams.
public struct FiveHundredPxSource: Sendable, Equatable {
    package static let defaultEndpoint = URL(string: "https://api.500px.com/v1/")!

    package var endpoint: URL
    package var consumerKey: String
    package var feature: String
    package var params: [String: String]
    /// `image_size[]` values asked for; the largest returned is the original.
    package var imageSizes: [Int]
    package var limit: Int?
    package var perPage: Int

    package init(
        endpoint: URL, consumerKey: String, feature: String, params: [String: String], imageSizes: [Int],
        limit: Int? = nil, perPage: Int
    ) {
        self.endpoint = endpoint
        self.consumerKey = consumerKey
        self.feature = feature
        self.params = params
        self.imageSizes = imageSizes
        self.limit = limit
        self.perPage = perPage
    }
}

/// `{"type": "parse", …}`: rows of a Parse Server class holding image URLs.
public struct ParseSource: Sendable, Equatable {
    /// Back4App hosts most Parse apps today; self-hosted servers set `endpoint` to their mount path.
    package static let defaultEndpoint = URL(string: "https://parseapi.back4app.com/")!
    package static let defaultColumns = [
        "title": "filename", "image": "fileURLString", "thumbnail": "thumbnailURLString"
    ]
    static let columnFields = [
        "title", "image", "thumbnail", "description", "author", "takenAt", "tags", "album", "license"
    ]

    package var endpoint: URL
    package var applicationId: String
    package var restApiKey: String?
    package var className: String
    /// Model field (`title`, `image`, …) to column name.
    package var columns: [String: String]
    package var order: String
    /// A `where` constraint as JSON text, passed through.
    package var whereJSON: String?
    package var limit: Int?
    package var perPage: Int

    package init(
        endpoint: URL, applicationId: String, restApiKey: String? = nil, className: String, columns: [String: String],
        order: String, whereJSON: String? = nil, limit: Int? = nil, perPage: Int
    ) {
        self.endpoint = endpoint
        self.applicationId = applicationId
        self.restApiKey = restApiKey
        self.className = className
        self.columns = columns
        self.order = order
        self.whereJSON = whereJSON
        self.limit = limit
        self.perPage = perPage
    }
}

/// Values from the environment that must never be printed, and where each came from.
public struct Credentials: Sendable, Equatable {
    /// Secret values (API keys, application ids) to redact from every message.
    public var secrets: [String] = []
    /// Config key path to the environment variable it was read from, e.g. `source.apiKey` → `FLICKR_API_KEY`.
    package var variables: [String: String] = [:]

    public init(secrets: [String] = [], variables: [String: String] = [:]) {
        self.secrets = secrets
        self.variables = variables
    }

    /// What a user should check for a credential: its environment variable, or else its config key.
    package func hint(_ keyPath: String) -> String {
        variables[keyPath] ?? keyPath
    }

    /// Replaces every secret in `text` with `***`.
    public func redact(_ text: String) -> String {
        secrets.filter { $0.count >= 4 }.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }
}
