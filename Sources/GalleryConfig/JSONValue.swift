import Foundation

/// A JSON document as a Swift value, used to substitute `${ENV}` references and to quote bad values.
///
/// Config decoding goes through this type once so that error messages can show the exact value a
/// user wrote at a key path, which `DecodingError` alone does not carry.
package enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: Decoder) throws {
        // Each failed guess throws a DecodingError, which is costly in a 10,000-photo manifest, so
        // the kinds are tried from the most common inside an entry: strings, numbers, booleans,
        // arrays (tags), then objects. (Manifests decode their entries as objects directly.)
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value at a decoding path, if there is one.
    package func value(at path: [CodingKey]) -> JSONValue? {
        var current: JSONValue? = self
        for key in path {
            switch current {
            case .object(let object)?: current = object[key.stringValue]
            case .array(let array)?:
                guard let index = key.intValue, array.indices.contains(index) else { return nil }
                current = array[index]
            default: return nil
            }
        }
        return current
    }

    /// A short JSON rendering of the value for error messages.
    package var quoted: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return String(value)
        case .number(let value):
            return value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .string(let value):
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let data = (try? encoder.encode(value)) ?? Data()
            return String(decoding: data, as: UTF8.self)
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// What kind of JSON value this is, in words.
    package var kind: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
