import Foundation

/// schema.org `ImageObject` JSON-LD for a photo page (https://schema.org/ImageObject).
///
/// Encoded with `JSONEncoder`, then made safe inside `<script>`: `<`, `>` and `&` become `\u003c`,
/// `\u003e` and `\u0026`, so no manifest text can close the element or open a comment.
struct ImageObject: Encodable {
    struct Person: Encodable {
        var type = "Person"
        var name: String
        var url: String?
        enum CodingKeys: String, CodingKey { case type = "@type", name, url }
    }

    var context = "https://schema.org"
    var type = "ImageObject"
    var name: String
    var description: String?
    var contentUrl: String
    var thumbnailUrl: String
    var url: String?
    var width: Int
    var height: Int
    var author: Person?
    var creator: Person?
    var license: String?
    var dateCreated: String?
    var keywords: String?
    var creditText: String?

    enum CodingKeys: String, CodingKey {
        case context = "@context", type = "@type", name, description, contentUrl, thumbnailUrl, url, width, height
        case author, creator, license, dateCreated, keywords, creditText
    }

    /// The JSON text, safe to place between `<script type="application/ld+json">` tags.
    func scriptSafeJSON() throws -> String {
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
