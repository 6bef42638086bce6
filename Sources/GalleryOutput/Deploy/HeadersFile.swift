import Foundation

/// The rules of a Netlify / Cloudflare Pages `_headers` file, which every build writes into the site
/// root (`Assets.headersFile`).
///
/// A deploy to a store that keeps headers per object (S3's `Cache-Control`) reads the rules from
/// there instead of keeping its own copy, so the build stays the one place that decides them.
/// Syntax as in https://docs.netlify.com/routing/headers/: a line starting with `/` opens a rule for
/// a path pattern (`*` matches anything, `:name` one path segment), and the indented
/// `Name: value` lines below it are that rule's headers. `#` starts a comment line.
package struct HeadersFile: Sendable, Equatable {
    package struct Rule: Sendable, Equatable {
        package var pattern: String
        package var headers: [(name: String, value: String)]

        package static func == (lhs: Rule, rhs: Rule) -> Bool {
            lhs.pattern == rhs.pattern
                && lhs.headers.map { "\($0.name):\($0.value)" } == rhs.headers.map { "\($0.name):\($0.value)" }
        }
    }

    package var rules: [Rule]

    /// Parses the text of a `_headers` file; lines it does not understand are ignored, as hosts do.
    package init(_ text: String) {
        var rules: [Rule] = []
        for line in text.split(whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            if line.first == "/" {
                rules.append(Rule(pattern: trimmed, headers: []))
            } else if let colon = trimmed.firstIndex(of: ":"), !rules.isEmpty {
                let name = trimmed[..<colon].trimmingCharacters(in: .whitespaces)
                let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                rules[rules.count - 1].headers.append((name, value))
            }
        }
        self.rules = rules
    }

    /// The value of header `name` for the file at `path` (relative to the site root): the last
    /// matching rule that sets it wins, since the file lists specific paths after general ones.
    package func value(_ name: String, for path: String) -> String? {
        let url = "/" + path
        var found: String?
        for rule in rules where Self.matches(rule.pattern, url) {
            if let header = rule.headers.last(where: { $0.name.lowercased() == name.lowercased() }) {
                found = header.value
            }
        }
        return found
    }

    /// Whether `pattern` (with `*` splats and `:name` placeholders) matches the whole of `path`.
    package static func matches(_ pattern: String, _ path: String) -> Bool {
        matches(Array(pattern.utf8)[...], Array(path.utf8)[...], segmentStart: false)
    }

    private static func matches(_ pattern: ArraySlice<UInt8>, _ path: ArraySlice<UInt8>, segmentStart: Bool) -> Bool {
        let slash = UInt8(ascii: "/")
        guard let first = pattern.first else { return path.isEmpty }
        let rest = pattern.dropFirst()
        switch first {
        case UInt8(ascii: "*"):
            return (path.startIndex...path.endIndex).contains { matches(rest, path[$0...], segmentStart: false) }
        case UInt8(ascii: ":") where segmentStart:
            let afterName = rest.firstIndex(of: slash) ?? rest.endIndex
            let segmentEnd = path.firstIndex(of: slash) ?? path.endIndex
            return segmentEnd > path.startIndex
                && matches(pattern[afterName...], path[segmentEnd...], segmentStart: false)
        default:
            return path.first == first && matches(rest, path.dropFirst(), segmentStart: first == slash)
        }
    }
}
