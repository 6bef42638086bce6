import Foundation
import GalleryModel
import Yams

/// A problem with a sidecar or `index.md` file, naming the file and, where known, the line.
package struct MetadataFileError: Error, CustomStringConvertible, Sendable, Equatable {
    package var file: String
    package var line: Int?
    package var reason: String

    package var description: String { "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)" }
}

/// A Markdown file with optional YAML front matter: the `key: value` lines between a first line
/// `---` and the next `---` (or `...`) line, parsed with Yams; the rest is the Markdown body.
///
/// The file is capped at `maxBytes` before anything is parsed, and values are read only by the
/// typed accessors below, which clean and cap them and name the line of a wrong value.
package struct FrontMatter {
    /// The largest sidecar or `index.md` read.
    package static let maxBytes = 1 << 20

    package let file: String
    /// Top-level keys as written, with their values.
    package let fields: [String: Node]
    /// The key's line in the file, for messages.
    package let lines: [String: Int]
    /// The Markdown after the front matter, trimmed; nil when there is none.
    package let body: String?

    /// Reads and splits `url`.
    /// - Throws: `MetadataFileError` when the file is unreadable, too large, not UTF-8, or its
    ///   front matter is not a YAML mapping.
    package static func read(_ url: URL) throws -> FrontMatter {
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            throw MetadataFileError(file: url.path, line: nil, reason: "cannot be read: \(error.localizedDescription)")
        }
        guard data.count <= maxBytes else {
            throw MetadataFileError(
                file: url.path, line: nil,
                reason: "is over \(maxBytes / 1024) KiB; sidecars and index.md files are refused above that")
        }
        guard let text = String(validating: data, as: UTF8.self) else {
            throw MetadataFileError(file: url.path, line: nil, reason: "is not UTF-8 text")
        }
        return try parse(text, file: url.path)
    }

    /// Splits `text` into front matter and body.
    package static func parse(_ text: String, file: String) throws -> FrontMatter {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        if let first = lines.first, first.hasPrefix("\u{feff}") { lines[0] = first.dropFirst() }
        guard lines.first?.trimmingCharacters(in: .whitespaces) == "---" else {
            return FrontMatter(file: file, fields: [:], lines: [:], body: cleanBody(lines[...]))
        }
        guard
            let close = lines.indices.dropFirst().first(where: {
                ["---", "..."].contains(lines[$0].trimmingCharacters(in: .whitespaces))
            })
        else {
            throw MetadataFileError(
                file: file, line: 1, reason: "front matter opened with --- is never closed; end it with a --- line")
        }
        let yaml = lines[1..<close].joined(separator: "\n")
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw Self.error(error, file: file)
        } catch {
            throw MetadataFileError(file: file, line: nil, reason: "front matter is not valid YAML: \(error)")
        }
        var fields: [String: Node] = [:]
        var keyLines: [String: Int] = [:]
        if let root {
            guard let mapping = root.mapping else {
                throw MetadataFileError(file: file, line: 2, reason: "front matter must be `key: value` lines")
            }
            for (key, value) in mapping {
                guard let name = key.scalar?.string else { continue }
                fields[name] = value
                keyLines[name] = (key.mark?.line).map { $0 + 1 }  // the YAML starts on the file's second line
            }
        }
        return FrontMatter(file: file, fields: fields, lines: keyLines, body: cleanBody(lines[(close + 1)...]))
    }

    private static func cleanBody(_ lines: ArraySlice<Substring>) -> String? {
        UntrustedText.clean(lines.joined(separator: "\n"), max: EmbeddedMetadata.maxCaption)
    }

    private static func error(_ error: YamlError, file: String) -> MetadataFileError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return MetadataFileError(
                file: file, line: mark.line + 1, reason: "front matter is not valid YAML: \(problem)")
        default:
            return MetadataFileError(file: file, line: nil, reason: "front matter is not valid YAML: \(error)")
        }
    }

    // MARK: Typed values

    /// A failure naming `key`'s line.
    package func failure(_ key: String, _ reason: String) -> MetadataFileError {
        MetadataFileError(file: file, line: lines[key], reason: reason)
    }

    /// Fails on any key outside `known`, so a typo (`titel`) is reported rather than ignored.
    package func checkKeys(_ known: [String]) throws {
        if let unknown = fields.keys.filter({ !known.contains($0) }).min(by: { (lines[$0] ?? 0) < (lines[$1] ?? 0) }) {
            let hint =
                Spelling.closest(to: unknown, among: known).map { "did you mean \"\($0)\"?" }
                ?? "use \(known.joined(separator: ", "))"
            throw failure(unknown, "unknown key \"\(unknown.prefix(60))\"; \(hint)")
        }
    }

    /// The first of `keys` that is present, with its value.
    private func field(_ keys: [String]) -> (key: String, node: Node)? {
        keys.lazy.compactMap { key in fields[key].map { (key, $0) } }.first
    }

    /// A text value (a number or date is taken as written), cleaned and capped; nil when absent or empty.
    package func string(_ keys: String..., max: Int) throws -> String? {
        guard case let (key, node)? = field(keys) else { return nil }
        if case .scalar(let scalar) = node {
            return node.null != nil ? nil : UntrustedText.clean(scalar.string, max: max)
        }
        throw failure(key, "\"\(key)\" must be a single value, not a list or a mapping")
    }

    /// `true`/`false` (also `yes`/`no`); nil when absent.
    package func bool(_ keys: String...) throws -> Bool? {
        guard case let (key, node)? = field(keys) else { return nil }
        guard let value = node.bool else { throw failure(key, "\"\(key)\" must be true or false") }
        return value
    }

    /// A list of texts (`[a, b]`, one `- item` per line, or `a, b` in one string), cleaned, capped and unique.
    package func list(_ keys: String..., max: Int, count: Int) throws -> [String]? {
        guard case let (key, node)? = field(keys) else { return nil }
        let items: [String]
        switch node {
        case .scalar(let scalar): items = scalar.string.split(separator: ",").map(String.init)
        case .sequence(let sequence):
            items = try sequence.prefix(count * 2).map { item in
                guard let text = item.scalar?.string else { throw failure(key, "\"\(key)\" must list plain values") }
                return text
            }
        default: throw failure(key, "\"\(key)\" must be a list or a comma-separated string")
        }
        var unique: [String] = []
        for item in items.compactMap({ UntrustedText.clean($0, max: max) })
        where !unique.contains(item) && unique.count < count {
            unique.append(item)
        }
        return unique
    }
}
