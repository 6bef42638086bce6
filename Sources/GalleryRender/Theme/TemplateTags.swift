import Foundation

/// The tags of a Mustache template with their lines and columns, for errors and warnings that name
/// the place: both names of a misclosed section and where it opened, a partial that does not exist.
///
/// swift-mustache reports a section closed with another name at the closing tag, without either
/// name, and a section never closed at the end of the file, not where it opened; it has no list of
/// a template's tags. This small scanner reads `{{…}}` tags with the default delimiters only: a
/// template that sets others (`{{=<% %>=}}`) is not scanned, and keeps the library's own message.
package struct TemplateTags {
    package struct Tag: Equatable {
        /// The character after `{{`: `#`, `^`, `/`, `>`, `$`, `<`, `&`, `!`, `{`, or nil for a variable.
        var sigil: Character?
        /// What the tag names, trimmed: `photos`, `lower(title)`.
        package var name: String
        package var line: Int
        package var column: Int
    }

    package private(set) var tags: [Tag] = []
    /// False when the template changes its delimiters, and the tags found mean nothing.
    private(set) var isScanned = true

    package init(_ text: String) {
        var line = 1
        var column = 1
        var index = text.startIndex
        while index < text.endIndex {
            if text[index...].hasPrefix("{{") {
                let start = (line, column)
                let body = text.index(index, offsetBy: 2)
                guard let close = text[body...].range(of: "}}") else { break }
                var content = Substring(text[body..<close.lowerBound])
                var end = close.upperBound
                if content.hasPrefix("{"), end < text.endIndex, text[end] == "}" { end = text.index(after: end) }
                let sigil = content.first.flatMap { "#^/>$<&!{=%".contains($0) ? $0 : nil }
                if sigil == "=" {
                    isScanned = false
                    return
                }
                if sigil != nil { content = content.dropFirst() }
                tags.append(
                    Tag(
                        sigil: sigil, name: content.trimmingCharacters(in: .whitespacesAndNewlines), line: start.0,
                        column: start.1))
                for character in text[index..<end] { Self.move(&line, &column, over: character) }
                index = end
            } else {
                Self.move(&line, &column, over: text[index])
                index = text.index(after: index)
            }
        }
    }

    /// What is wrong with the template's sections, in words, naming both names and the line where
    /// a section opened; nil when they nest properly (or the template was not scanned).
    var sectionProblem: String? {
        guard isScanned else { return nil }
        var open: [Tag] = []
        for tag in tags {
            switch tag.sigil {
            case "#", "^", "$", "<":
                open.append(tag)
            case "/":
                guard let section = open.popLast() else {
                    return
                        "{{/\(tag.name)}} at line \(tag.line), column \(tag.column) closes no open section; remove it"
                }
                if section.name != tag.name {
                    return
                        "section {{\(section.sigil!)\(section.name)}} opened at line \(section.line), column \(section.column) "
                        + "is closed with {{/\(tag.name)}} at line \(tag.line), column \(tag.column); close it with {{/\(section.name)}}"
                }
            default:
                continue
            }
        }
        guard let section = open.last else { return nil }
        return "section {{\(section.sigil!)\(section.name)}} opened at line \(section.line), column \(section.column) "
            + "is never closed; add {{/\(section.name)}} where it should end"
    }

    private static func move(_ line: inout Int, _ column: inout Int, over character: Character) {
        if character == "\n" || character == "\r\n" {
            line += 1
            column = 1
        } else {
            column += 1
        }
    }
}
