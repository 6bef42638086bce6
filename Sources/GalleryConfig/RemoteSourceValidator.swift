import Foundation

/// Checks the `source` block of the remote providers and fills in their defaults.
package struct RemoteSourceValidator {
    package let validator: ConfigValidator
    private var file: String { validator.name }
    package typealias D = SiteConfig.Defaults

    package func validate(_ source: SiteConfigFile.Source) throws -> SourceConfig {
        // Public streams are effectively endless (500px "popular" reports 1,620 pages), so Flickr and
        // 500px stop at a default limit unless one is given; a Parse class is the site's own data.
        let fallback = source.type == "parse" ? nil : D.remoteLimit
        let limit = try (source.limit ?? fallback).map { try validator.range($0, "source.limit", 1...1_000_000) }
        switch source.type {
        case "flickr":
            let method = source.method ?? D.flickrMethod
            guard FlickrSource.methods.contains(method) else {
                throw ConfigError(
                    file: file, key: "source.method",
                    "unknown method \(JSONValue.string(method).quoted) "
                        + "(expected \(FlickrSource.methods.joined(separator: ", ")))")
            }
            let isFeed = method == "feed"
            if !isFeed && (source.apiKey ?? "").isEmpty {
                throw ConfigError(
                    file: file, key: "source.apiKey",
                    "missing; Flickr's REST API needs a key, e.g. \"apiKey\": \"${FLICKR_API_KEY}\" "
                        + "(or use \"method\": \"feed\" for the key-less public feed)")
            }
            return .flickr(
                FlickrSource(
                    endpoint: try endpoint(
                        source.endpoint, default: isFeed ? FlickrSource.feedEndpoint : FlickrSource.restEndpoint),
                    apiKey: source.apiKey, method: method, params: try params(source.params), limit: limit,
                    perPage: try validator.range(source.perPage ?? D.flickrPerPage, "source.perPage", 1...500)))
        case "500px":
            guard let key = source.consumerKey, !key.isEmpty else {
                throw ConfigError(
                    file: file, key: "source.consumerKey",
                    "missing; the 500px API needs a consumer key, e.g. \"consumerKey\": \"${PX500_CONSUMER_KEY}\"")
            }
            return .fiveHundredPx(
                FiveHundredPxSource(
                    endpoint: try endpoint(source.endpoint, default: FiveHundredPxSource.defaultEndpoint),
                    consumerKey: key, feature: source.feature ?? D.fiveHundredPxFeature,
                    params: try params(source.params),
                    imageSizes: source.imageSizes ?? D.fiveHundredPxImageSizes, limit: limit,
                    perPage: try validator.range(source.perPage ?? D.fiveHundredPxPerPage, "source.perPage", 1...100)))
        default:
            guard let applicationId = source.applicationId, !applicationId.isEmpty else {
                throw ConfigError(
                    file: file, key: "source.applicationId",
                    "missing; Parse needs the app id, e.g. \"applicationId\": \"${PARSE_APP_ID}\"")
            }
            let className = source.className ?? D.parseClassName
            guard !className.isEmpty, className.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else {
                throw ConfigError(
                    file: file, key: "source.className",
                    "\(JSONValue.string(className).quoted) is not a Parse class name (letters, digits, _)")
            }
            var columns = ParseSource.defaultColumns
            for (field, column) in source.columns ?? [:] {
                guard ParseSource.columnFields.contains(field) else {
                    throw ConfigError(
                        file: file, key: "source.columns.\(field)",
                        "unknown field (expected \(ParseSource.columnFields.joined(separator: ", ")))")
                }
                columns[field] = column
            }
            var whereJSON: String?
            if let constraint = source.where {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                whereJSON = String(decoding: try encoder.encode(constraint), as: UTF8.self)
            }
            return .parse(
                ParseSource(
                    endpoint: try endpoint(source.endpoint, default: ParseSource.defaultEndpoint),
                    applicationId: applicationId, restApiKey: source.restApiKey, className: className, columns: columns,
                    order: source.order ?? D.parseOrder, whereJSON: whereJSON, limit: limit,
                    perPage: try validator.range(source.perPage ?? D.parsePerPage, "source.perPage", 1...1000)))
        }
    }

    private func endpoint(_ value: String?, default fallback: URL) throws -> URL {
        guard let value else { return fallback }
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else {
            throw ConfigError(
                file: file, key: "source.endpoint", "\(JSONValue.string(value).quoted) is not an http(s) URL")
        }
        return url
    }

    /// Free query parameters: strings, numbers and booleans become strings.
    private func params(_ values: [String: JSONValue]?) throws -> [String: String] {
        var result: [String: String] = [:]
        for (key, value) in values ?? [:] {
            switch value {
            case .string(let text): result[key] = text
            case .number, .bool: result[key] = value.quoted
            default:
                throw ConfigError(
                    file: file, key: "source.params.\(key)", "expected a string or number, got \(value.kind)")
            }
        }
        return result
    }
}
