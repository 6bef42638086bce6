import Foundation

/// Digests an `Encodable` value into a `CacheKey`: every field name and value, in declaration
/// order, with markers where each nested value, array element and optional begins and ends, so
/// different values never give the same stream.
///
/// Pages are keyed this way: the key of a page is the digest of its whole template model, so a
/// page is rendered again exactly when some value it shows changed. Going through the models'
/// synthesized `Encodable` conformances means a field added to a model is covered without anyone
/// remembering to add it to the key. `[String: String]` is written with its keys sorted, because a
/// dictionary's own order changes from process to process; no model uses any other dictionary.
package enum InputDigest {
    /// Adds `value` to `key`.
    package static func add<T: Encodable>(_ value: T, to key: inout CacheKey) throws {
        let sink = Sink()
        try Sink.value(value, into: sink)
        sink.bytes.withUnsafeBytes { key.add(bytes: $0) }
    }

    /// The stream's markers; each is one byte, and strings carry their length.
    package enum Marker: UInt8 {
        case string = 1, scalar, null, begin, end, field
    }

    /// Collects the stream, which is hashed in one go at the end.
    package final class Sink {
        package var bytes: [UInt8] = []

        package init() { bytes.reserveCapacity(4096) }

        package func mark(_ marker: Marker) { bytes.append(marker.rawValue) }

        package func string(_ marker: Marker, _ text: String) {
            mark(marker)
            let count = UInt32(truncatingIfNeeded: text.utf8.count).littleEndian
            withUnsafeBytes(of: count) { bytes.append(contentsOf: $0) }
            bytes.append(contentsOf: text.utf8)
        }

        package func scalar<T: LosslessStringConvertible>(_ value: T) { string(.scalar, value.description) }

        package static func value<T: Encodable>(_ value: T, into sink: Sink) throws {
            // Metatype comparisons first: a dynamic cast of every nested value costs more.
            if T.self == String.self, let text = value as? String {
                sink.string(.string, text)
            } else if T.self == [String: String].self, let dictionary = value as? [String: String] {
                sink.mark(.begin)
                for (name, text) in dictionary.sorted(by: { $0.key < $1.key }) {
                    sink.string(.field, name)
                    sink.string(.string, text)
                }
                sink.mark(.end)
            } else {
                sink.mark(.begin)
                try value.encode(to: DigestEncoder(sink: sink))
                sink.mark(.end)
            }
        }
    }

    struct DigestEncoder: Encoder {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            KeyedEncodingContainer(Keyed<Key>(sink: sink))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer { Unkeyed(sink: sink) }

        func singleValueContainer() -> any SingleValueEncodingContainer { Single(sink: sink) }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }

        private func field(_ key: Key) { sink.string(.field, key.stringValue) }

        mutating func encodeNil(forKey key: Key) throws {
            field(key)
            sink.mark(.null)
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: String, forKey key: Key) throws {
            field(key)
            sink.string(.string, value)
        }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: Int, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: Int8, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: Int16, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: Int32, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: Int64, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: UInt, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: UInt8, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: UInt16, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: UInt32, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode(_ value: UInt64, forKey key: Key) throws {
            field(key)
            sink.scalar(value)
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            field(key)
            try Sink.value(value, into: sink)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type,
            forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            field(key)
            return KeyedEncodingContainer(Keyed<NestedKey>(sink: sink))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            field(key)
            return Unkeyed(sink: sink)
        }

        mutating func superEncoder() -> any Encoder { DigestEncoder(sink: sink) }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            field(key)
            return DigestEncoder(sink: sink)
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }
        private(set) var count = 0

        init(sink: Sink) { self.sink = sink }

        mutating func encodeNil() throws {
            count += 1
            sink.mark(.null)
        }
        mutating func encode<T: Encodable>(_ value: T) throws {
            count += 1
            try Sink.value(value, into: sink)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            count += 1
            return KeyedEncodingContainer(Keyed<NestedKey>(sink: sink))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            return Unkeyed(sink: sink)
        }

        mutating func superEncoder() -> any Encoder { DigestEncoder(sink: sink) }
    }

    struct Single: SingleValueEncodingContainer {
        let sink: Sink
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { sink.mark(.null) }
        mutating func encode(_ value: Bool) throws { sink.scalar(value) }
        mutating func encode(_ value: String) throws { sink.string(.string, value) }
        mutating func encode(_ value: Double) throws { sink.scalar(value) }
        mutating func encode(_ value: Float) throws { sink.scalar(value) }
        mutating func encode(_ value: Int) throws { sink.scalar(value) }
        mutating func encode(_ value: Int8) throws { sink.scalar(value) }
        mutating func encode(_ value: Int16) throws { sink.scalar(value) }
        mutating func encode(_ value: Int32) throws { sink.scalar(value) }
        mutating func encode(_ value: Int64) throws { sink.scalar(value) }
        mutating func encode(_ value: UInt) throws { sink.scalar(value) }
        mutating func encode(_ value: UInt8) throws { sink.scalar(value) }
        mutating func encode(_ value: UInt16) throws { sink.scalar(value) }
        mutating func encode(_ value: UInt32) throws { sink.scalar(value) }
        mutating func encode(_ value: UInt64) throws { sink.scalar(value) }
        mutating func encode<T: Encodable>(_ value: T) throws { try Sink.value(value, into: sink) }
    }
}
