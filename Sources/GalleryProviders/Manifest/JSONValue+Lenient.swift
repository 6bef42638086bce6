import Foundation
import GalleryConfig
import GalleryModel

/// Forgiving readers for API data, where numbers arrive as strings, fields go missing or are null,
/// and bodies may be JSONP-wrapped.
extension JSONValue {
    package subscript(key: String) -> JSONValue? {
        if case .object(let object) = self { return object[key] }
        return nil
    }

    package var array: [JSONValue]? {
        if case .array(let items) = self { return items }
        return nil
    }

    /// A non-empty string, trimmed; numbers are written out (`123` → `"123"`).
    package var text: String? {
        switch self {
        case .string(let value):
            let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed.isEmpty ? nil : trimmed
        case .number: return quoted
        default: return nil
        }
    }

    /// A number from a JSON number or a numeric string.
    package var number: Double? {
        switch self {
        case .number(let value): return value.isFinite ? value : nil
        case .string(let value):
            return Double(value.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    package var integer: Int? {
        number.flatMap { $0.rounded() == $0 && abs($0) < 1e15 ? Int($0) : nil }
    }

    /// Parses API bytes, unwrapping a `callback(…)` JSONP wrapper and Flickr's invalid `\'` escapes.
    /// - Throws: `DecodingError` when the body is not JSON even then.
    package static func parseLenient(_ data: Data) throws -> JSONValue {
        if let value = try? JSONDecoder().decode(JSONValue.self, from: data) { return value }
        var text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") || text.hasSuffix(");"),
            text[..<open].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." || $0 == "$" })
        {
            text = String(text[text.index(after: open)...])
            text = String(text.dropLast(text.hasSuffix(");") ? 2 : 1))
        }
        text = text.replacingOccurrences(of: "\\'", with: "'")
        return try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }
}

/// Latitude and longitude; 0,0 and out-of-range values mean "unknown".
func geoPoint(latitude: JSONValue?, longitude: JSONValue?) -> GeoPoint? {
    guard let lat = latitude?.number, let lon = longitude?.number, !(lat == 0 && lon == 0),
        (-90...90).contains(lat), (-180...180).contains(lon)
    else { return nil }
    return GeoPoint(latitude: lat, longitude: lon)
}

/// Old Flickr and 500px data links images over plain http; both CDNs serve the same paths over https.
func upgradingToHTTPS(_ url: URL) -> URL {
    guard url.scheme?.lowercased() == "http", let host = url.host?.lowercased(),
        ["staticflickr.com", "flickr.com", "500px.org", "500px.net", "500px.com"].contains(where: {
            host == $0 || host.hasSuffix("." + $0)
        }),
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
    else { return url }
    components.scheme = "https"
    return components.url ?? url
}
