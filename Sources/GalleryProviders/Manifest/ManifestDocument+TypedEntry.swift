import Foundation
import GalleryConfig

/// An entry decoded by the types its keys usually hold, and only then as `JSONValue`s.
///
/// Decoding `[String: JSONValue]` asks `JSONDecoder` for each value as every kind in turn until
/// one fits, which made reading a manifest about 15 µs an entry (14 s of a 1,000,000-photo no-op).
/// Asking for the kind the mapper expects of each known key (`id`, `title`… as strings, `tags` as
/// strings, `rating` as a number) cut `JSONDecoder`'s instructions in a no-op by a third. It gives
/// the same dictionary: a key the mapper does not know is decoded as a `JSONValue` as before, and an
/// entry where a known key holds anything else (`null`, a number id, an author object) fails here
/// and is decoded the old way (`ManifestDocument.readEntries`). `ManifestEquivalenceTests` holds
/// both against a decode of the whole document.
struct TypedManifestEntry: Decodable {
    var fields: [String: JSONValue]

    /// What the mapper expects a key to hold in the common case; nil for a key it does not read.
    private enum Kind { case text, texts, number }

    private static func kind(_ key: String) -> Kind? {
        switch key {
        case "id", "image", "title", "description", "author", "authorUrl", "license", "takenAt", "album": .text
        case "tags": .texts
        case "rating": .number
        default: nil
        }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        var fields = [String: JSONValue](minimumCapacity: 16)
        for key in container.allKeys {
            let name = key.stringValue
            switch Self.kind(name) {
            case .text?: fields[name] = .string(try container.decode(String.self, forKey: key))
            case .texts?: fields[name] = .array(try container.decode([String].self, forKey: key).map(JSONValue.string))
            case .number?: fields[name] = .number(try container.decode(Double.self, forKey: key))
            case nil: fields[name] = try container.decode(JSONValue.self, forKey: key)
            }
        }
        self.fields = fields
    }
}
