import Foundation

/// Turns the HTML that feeds put in descriptions into Markdown source text, so it is rendered by
/// cmark in safe mode and never passed through as HTML.
///
/// Tags are dropped, `<br>` and block ends become line breaks, `<a href>` with an http(s) target
/// becomes a Markdown link, entities are decoded, and Markdown punctuation in the text is escaped
/// so that a description cannot inject markup of its own.
package enum HTMLText {
    package static func markdown(fromHTML html: String) -> String {
        var output = ""
        var index = html.startIndex
        var linkStack: [(href: String?, start: String.Index)] = []
        while index < html.endIndex {
            let character = html[index]
            if character == "<", let close = html[index...].firstIndex(of: ">") {
                let tag = html[html.index(after: index)..<close].trimmingCharacters(in: .whitespaces)
                let name = tag.lowercased().prefix { $0.isLetter || $0.isNumber || $0 == "/" }
                switch name {
                case "br", "br/": output += "  \n"
                case "p", "/p", "div", "/div", "li", "/ul", "/ol", "h1", "h2", "h3", "/h1", "/h2", "/h3":
                    output += "\n\n"
                case "a":
                    let href = attribute("href", in: String(tag)).flatMap(safeLink)
                    if href != nil { output += "[" }
                    linkStack.append((href, output.endIndex))
                case "/a":
                    guard let link = linkStack.popLast(), let href = link.href else { break }
                    if output[link.start...].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                        output.remove(at: output.index(before: link.start))  // no text: drop the "["
                    } else {
                        output += "](\(href))"
                    }
                default: break
                }
                index = html.index(after: close)
                continue
            }
            if character == "&", let semicolon = html[index...].prefix(10).firstIndex(of: ";") {
                let entity = String(html[html.index(after: index)..<semicolon])
                if let decoded = decode(entity) {
                    output += escape(decoded)
                    index = html.index(after: semicolon)
                    continue
                }
            }
            output += escape(String(character))
            index = html.index(after: index)
        }
        for link in linkStack.reversed() where link.href != nil { output += "]" }
        return output.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n")
            .replacingOccurrences(of: "\n\n\n+", with: "\n\n", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static func escape(_ text: String) -> String {
        var result = ""
        for character in text {
            if "\\`*_{}[]()<>#+!|~".contains(character) { result.append("\\") }
            result.append(character)
        }
        return result
    }

    private static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: "\(name)=", options: .caseInsensitive) else { return nil }
        var rest = tag[range.upperBound...]
        guard let quote = rest.first, quote == "\"" || quote == "'" else {
            return String(rest.prefix { !$0.isWhitespace })
        }
        rest = rest.dropFirst()
        return rest.firstIndex(of: quote).map { String(rest[..<$0]) }
    }

    private static func safeLink(_ raw: String) -> String? {
        var value = raw
        for (entity, character) in [("&amp;", "&"), ("&quot;", "\""), ("&#39;", "'")] {
            value = value.replacingOccurrences(of: entity, with: character)
        }
        guard let url = URL(string: value), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            url.host != nil
        else { return nil }
        return url.absoluteString.replacingOccurrences(of: "(", with: "%28").replacingOccurrences(of: ")", with: "%29")
            .replacingOccurrences(of: " ", with: "%20")
    }

    private static func decode(_ entity: String) -> String? {
        let named = [
            "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "hellip": "…",
            "mdash": "—", "ndash": "–", "copy": "©", "laquo": "«", "raquo": "»"
        ]
        if let value = named[entity] { return value }
        if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let code = UInt32(entity.dropFirst(2), radix: 16) {
            return Unicode.Scalar(code).map { String(Character($0)) }
        }
        if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()) {
            return Unicode.Scalar(code).map { String(Character($0)) }
        }
        return nil
    }
}
