import Foundation
import GalleryModel

/// A problem with a sidecar or `index.md` file, naming the file and, where known, the line.
///
/// Callers that act on the problem switch on `kind`, never on the words.
package struct MetadataFileError: KindedError, Equatable {
    package enum Kind: Sendable, Equatable {
        /// The file cannot be read.
        case unreadable
        /// The file is over the size read for its kind.
        case tooLarge
        /// The file is not UTF-8 text.
        case notText
        /// The front matter is not YAML `key: value` lines, or the XMP sidecar is no XMP packet.
        case malformed
        /// A key the file may not hold (a typo, say).
        case unknownKey
        /// A key's value is of the wrong type or out of range.
        case badValue
    }

    package var kind: Kind
    package var file: String
    package var line: Int?
    package var reason: String

    package init(_ kind: Kind, file: String, line: Int?, reason: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.reason = reason
    }

    package var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)" }
}

extension MetadataFileError {
    /// The bytes of a sidecar or `index.md` file of at most `maxBytes`.
    /// - Parameter kinds: What the refusal calls such files (`sidecars and index.md files`).
    /// - Throws: `MetadataFileError` naming the file when it cannot be read, or is larger.
    package static func contents(of url: URL, maxBytes: Int, kinds: String) throws -> Data {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            throw MetadataFileError(
                .unreadable, file: url.path, line: nil, reason: "cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= maxBytes else {
            throw MetadataFileError(
                .tooLarge, file: url.path, line: nil,
                reason: "is over \(maxBytes / 1024) KiB; \(kinds) are refused above that")
        }
        return data
    }

    /// A key the file may not hold, left out, with the key a person probably meant.
    package static func unknownKey(
        _ key: String, file: String, line: Int?, nearest: String?, known: [String]
    ) -> MetadataFileError {
        let hint = nearest.map { "did you mean \"\($0)\"?" } ?? "use \(known.joined(separator: ", "))"
        return MetadataFileError(
            .unknownKey, file: file, line: line, reason: "unknown key \"\(key.prefix(60))\" left out; \(hint)")
    }
}
