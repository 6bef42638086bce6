import Mustache

/// The escaping every `{{…}}` in the theme gets: the same five replacements as swift-mustache's
/// own HTML content type (`<`, `>`, `&`, `"` and `'`), done on UTF-8 bytes.
///
/// swift-mustache escapes character by character through a `[Character: String]` dictionary,
/// which was a third of the rendering time of 10,000 photo pages (their inline styles carry a
/// placeholder image as a `data:` URI). Most values need no escaping at all; those come back
/// unchanged without being copied. Working on bytes also escapes a `<` that carries a combining
/// mark, which the character-based version leaves alone, since `"<\u{301}"` is one `Character`. `Theme.library()` selects this content type at the top of
/// every template, the built-in ones and a site's own.
package struct FastHTMLEscaping: MustacheContentType {
    package static let name = "GALLERYSSG_HTML"

    /// Registers the content type under `name`, once per process, before any template is parsed.
    package static let registered: Void = MustacheContentTypes.register(FastHTMLEscaping(), named: name)

    package func escapeText(_ text: String) -> String { Self.escape(text) }

    package static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscaping) else { return text }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count + 32)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "<"): output += "&lt;".utf8
            case UInt8(ascii: ">"): output += "&gt;".utf8
            case UInt8(ascii: "&"): output += "&amp;".utf8
            case UInt8(ascii: "\""): output += "&quot;".utf8
            case UInt8(ascii: "'"): output += "&#39;".utf8
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "&")
            || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
    }
}
