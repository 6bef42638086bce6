import Foundation

/// schema.org `ImageObject` JSON-LD for a photo page (https://schema.org/ImageObject), or
/// `VideoObject` for a clip's (https://schema.org/VideoObject).
///
/// Encoded with `JSONEncoder`, then made safe inside `<script>`: `<`, `>` and `&` become `\u003c`,
/// `\u003e` and `\u0026`, so no manifest text can close the element or open a comment.
package struct ImageObject: Encodable {
    package struct Person: Encodable {
        package var type = "Person"
        package var name: String
        package var url: String?
        package enum CodingKeys: String, CodingKey { case type = "@type", name, url }
    }

    package var context = "https://schema.org"
    package var type = "ImageObject"
    package var name: String
    package var description: String?
    package var contentUrl: String
    var thumbnailUrl: String
    package var url: String?
    package var width: Int
    package var height: Int
    package var author: Person?
    package var creator: Person?
    package var license: String?
    var dateCreated: String?
    package var keywords: String?
    var creditText: String?
    /// A clip's length (ISO 8601) and date; nil for a still.
    package var duration: String? = nil
    var uploadDate: String? = nil

    package enum CodingKeys: String, CodingKey {
        case context = "@context", type = "@type", name, description, contentUrl, thumbnailUrl, url, width, height
        case author, creator, license, dateCreated, keywords, creditText, duration, uploadDate
    }

    /// The JSON text, safe to place between `<script type="application/ld+json">` tags.
    package func scriptSafeJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = try encoder.encode(self)
        var safe: [UInt8] = []
        safe.reserveCapacity(json.count + 16)
        for byte in json {
            switch byte {
            case UInt8(ascii: "&"): safe += #"\u0026"#.utf8
            case UInt8(ascii: "<"): safe += #"\u003c"#.utf8
            case UInt8(ascii: ">"): safe += #"\u003e"#.utf8
            default: safe.append(byte)
            }
        }
        return String(decoding: safe, as: UTF8.self)
    }
}
