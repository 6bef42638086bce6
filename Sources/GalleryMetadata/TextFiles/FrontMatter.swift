import Foundation
import GalleryModel
import Yams

/// A Markdown file with optional front matter, as galleryssg, Hugo, sigal and Pelican write it:
/// YAML between a first line `---` and the next `---` (or `...`) line, parsed with Yams; TOML
/// between `+++` lines (Hugo, `TOMLSubset`); or `Key: value` header lines ending at the first
/// blank line (sigal, Pelican, `HeaderLines`). The rest is the Markdown body.
///
/// The file is capped at `maxBytes` before anything is parsed, and values are read only by the
/// typed accessors below, which clean and cap them and name the line of a wrong value.
package struct FrontMatter {
    /// The largest sidecar or `index.md` read.
    package static let maxBytes = 1 << 20

    /// How the file's fields were written.
    package enum Format: Sendable, Equatable {
        /// No front matter: the whole file is the body.
        case none
        case yaml
        case toml
        /// `Key: value` lines, whose keys are case-insensitive.
        case headerLines
    }

    package let file: String
    package var format: Format = .none
    /// Top-level keys as written, with their values.
    package var fields: [String: Node]
    /// The key's line in the file, for messages.
    package var lines: [String: Int]
    /// The Markdown after the front matter, trimmed; nil when there is none.
    package let body: String?

    /// Reads and splits `url`.
    /// - Throws: `MetadataFileError` when the file is unreadable, too large, not UTF-8, or its
    ///   front matter is not a YAML mapping.
    package static func read(_ url: URL) throws -> FrontMatter {
        let data = try MetadataFileError.contents(of: url, maxBytes: maxBytes, kinds: "sidecars and index.md files")
        guard let text = String(validating: data, as: UTF8.self) else {
            throw MetadataFileError(.notText, file: url.path, line: nil, reason: "is not UTF-8 text")
        }
        return try parse(text, file: url.path)
    }

    /// Splits `text` into front matter and body.
    package static func parse(_ text: String, file: String) throws -> FrontMatter {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.hasSuffix("\r") ? $0.dropLast() : $0
        }
        if let first = lines.first, first.hasPrefix("\u{feff}") { lines[0] = first.dropFirst() }
        let opening = lines.first?.trimmingCharacters(in: .whitespaces)
        guard opening == "---" || opening == "+++" else {
            guard let (entries, bodyStart) = HeaderLines.split(lines) else {
                return FrontMatter(file: file, fields: [:], lines: [:], body: cleanBody(lines[...]))
            }
            return FrontMatter(
                file: file, format: .headerLines,
                fields: Dictionary(entries.map { ($0.key, Node($0.value)) }, uniquingKeysWith: { first, _ in first }),
                lines: Dictionary(entries.map { ($0.key, $0.line) }, uniquingKeysWith: { first, _ in first }),
                body: cleanBody(lines[bodyStart...]))
        }
        let ends = opening == "+++" ? ["+++"] : ["---", "..."]
        guard
            let close = lines.indices.dropFirst().first(where: {
                ends.contains(lines[$0].trimmingCharacters(in: .whitespaces))
            })
        else {
            throw MetadataFileError(
                .malformed, file: file, line: 1,
                reason: "front matter opened with \(opening ?? "") is never closed; end it with a \(ends[0]) line")
        }
        if opening == "+++" {
            do {
                let toml = try TOMLSubset.parse(lines[1..<close].joined(separator: "\n"))
                return FrontMatter(
                    file: file, format: .toml, fields: toml.fields, lines: toml.lines.mapValues { $0 + 1 },
                    body: cleanBody(lines[(close + 1)...]))
            } catch {
                throw MetadataFileError(
                    .malformed, file: file, line: error.line + 1,
                    reason: "front matter is not TOML galleryssg reads: \(error.reason)")
            }
        }
        let yaml = lines[1..<close].joined(separator: "\n")
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch let error as YamlError {
            throw Self.error(error, file: file)
        } catch {
            throw MetadataFileError(
                .malformed, file: file, line: nil, reason: "front matter is not valid YAML: \(error)")
        }
        var fields: [String: Node] = [:]
        var keyLines: [String: Int] = [:]
        if let root {
            guard let mapping = root.mapping else {
                throw MetadataFileError(
                    .malformed, file: file, line: 2, reason: "front matter must be `key: value` lines")
            }
            for (key, value) in mapping {
                guard let name = key.scalar?.string else { continue }
                fields[name] = value
                keyLines[name] = (key.mark?.line).map { $0 + 1 }  // the YAML starts on the file's second line
            }
        }
        return FrontMatter(
            file: file, format: .yaml, fields: fields, lines: keyLines, body: cleanBody(lines[(close + 1)...]))
    }

    private static func cleanBody(_ lines: ArraySlice<Substring>) -> String? {
        UntrustedText.clean(lines.joined(separator: "\n"), max: EmbeddedMetadata.maxCaption)
    }

    private static func error(_ error: YamlError, file: String) -> MetadataFileError {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            return MetadataFileError(
                .malformed, file: file, line: mark.line + 1, reason: "front matter is not valid YAML: \(problem)")
        default:
            return MetadataFileError(
                .malformed, file: file, line: nil, reason: "front matter is not valid YAML: \(error)")
        }
    }
}
