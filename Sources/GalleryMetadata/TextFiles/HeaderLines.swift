import Foundation

/// `Key: value` lines at the top of a text file, as sigal, Pelican and Python-Markdown's meta
/// extension read them: no `---`, one `Key: value` a line, a line indented four spaces continues
/// the one before, and the first blank line ends them; the text after it is the body.
///
/// A file is taken to start with header lines only when every line before the first blank line is
/// one and at least one key is known (`ForeignKeys.headerKeys`), so a description that starts
/// with "Note: the light was…" stays a description.
/// See https://python-markdown.github.io/extensions/meta_data/ and sigal's "Album information".
enum HeaderLines {
    struct Entry: Equatable {
        var key: String
        var value: String
        /// The 1-based line of the key.
        var line: Int
    }

    /// The header lines of `lines` and the index of the first body line, or nil when it has none.
    static func split(_ lines: [Substring]) -> (entries: [Entry], bodyStart: Int)? {
        var entries: [Entry] = []
        var index = 0
        while index < lines.count, !lines[index].allSatisfy(\.isWhitespace) {
            let line = lines[index]
            if let (key, value) = keyValue(line) {
                if let same = entries.firstIndex(where: { $0.key.lowercased() == key.lowercased() }) {
                    entries[same].value += ", " + value  // Python-Markdown keeps every value of a repeated key
                } else {
                    entries.append(Entry(key: key, value: value, line: index + 1))
                }
            } else if line.hasPrefix("    ") || line.hasPrefix("\t"), !entries.isEmpty {
                entries[entries.count - 1].value += " " + line.trimmingCharacters(in: .whitespaces)
            } else {
                return nil
            }
            index += 1
        }
        guard entries.contains(where: { ForeignKeys.headerKeys.contains($0.key.lowercased()) }) else { return nil }
        return (entries, index)
    }

    /// `Title: A walk` → ("Title", "A walk"): at most three spaces before a key of letters, digits, `_`
    /// and `-`, then a colon.
    private static func keyValue(_ line: Substring) -> (String, String)? {
        let indent = line.prefix(while: { $0 == " " })
        guard indent.count <= 3 else { return nil }
        let rest = line.dropFirst(indent.count)
        let key = rest.prefix(while: { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") })
        guard !key.isEmpty, rest.dropFirst(key.count).first == ":" else { return nil }
        return (String(key), rest.dropFirst(key.count + 1).trimmingCharacters(in: .whitespaces))
    }
}
