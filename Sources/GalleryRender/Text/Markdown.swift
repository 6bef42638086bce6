import CCmark
import Foundation

/// Markdown to HTML with cmark, the only file that imports it.
///
/// cmark's safe mode (the default since 0.29) drops raw HTML and `javascript:`-style links. On top
/// of that, images in a description become plain links, so a manifest cannot embed third-party
/// images (trackers, unsized `img` elements), and headings are moved down two levels so they sit
/// under the page's own `h1` and `h2`.
package enum Markdown {
    /// Renders Markdown to safe HTML.
    package static func html(_ markdown: String) -> String {
        let options = CMARK_OPT_VALIDATE_UTF8 | (asksForSmartQuotes(markdown) ? CMARK_OPT_SMART : 0)
        let bytes = Array(markdown.utf8)
        guard let document = cmark_parse_document(bytes, bytes.count, options) else { return "" }
        defer { cmark_node_free(document) }
        rewrite(document)
        guard let rendered = cmark_render_html(document, options) else { return "" }
        defer { free(rendered) }
        return String(cString: rendered)
    }

    /// Whether cmark's smart punctuation (curly quotes, dashes, ellipses) may apply: only where
    /// every straight double quote pairs up and none sits inside a word. Smart mode makes a lone
    /// quote a closing one (`in"description` → `in”description`), so text with one keeps every
    /// character as its author typed it.
    static func asksForSmartQuotes(_ markdown: String) -> Bool {
        let scalars = Array(markdown.unicodeScalars)
        var count = 0
        for (index, scalar) in scalars.enumerated() where scalar == "\"" {
            count += 1
            let before = index > 0 && CharacterSet.alphanumerics.contains(scalars[index - 1])
            let after = index + 1 < scalars.count && CharacterSet.alphanumerics.contains(scalars[index + 1])
            if before && after { return false }
        }
        return count % 2 == 0
    }

    private static func isInsideLink(_ node: OpaquePointer) -> Bool {
        var parent = cmark_node_parent(node)
        while let current = parent {
            let type = cmark_node_get_type(current)
            if type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE { return true }
            parent = cmark_node_parent(current)
        }
        return false
    }

    /// Whether a link target is an http(s) or mailto URL, or a relative reference.
    static func isSafe(url pointer: UnsafePointer<CChar>?) -> Bool {
        guard let pointer else { return false }
        let url = String(cString: pointer).trimmingCharacters(in: .whitespaces).lowercased()
        guard !url.isEmpty else { return false }
        guard let colon = url.firstIndex(of: ":"), !url[..<colon].contains("/") else { return true }
        return ["http", "https", "mailto"].contains(String(url[..<colon]))
    }

    /// The text of a Markdown document without markup, for `<meta name="description">`; cut at
    /// `limit` characters on a word boundary.
    package static func plainText(_ markdown: String, limit: Int) -> String {
        let bytes = Array(markdown.utf8)
        guard let document = cmark_parse_document(bytes, bytes.count, CMARK_OPT_VALIDATE_UTF8),
            let iterator = cmark_iter_new(document)
        else { return "" }
        defer {
            cmark_iter_free(iterator)
            cmark_node_free(document)
        }
        var text = ""
        while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            let entering = cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER
            switch cmark_node_get_type(node) {
            case CMARK_NODE_TEXT, CMARK_NODE_CODE:
                if let literal = cmark_node_get_literal(node) { text += String(cString: literal) }
            case CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK: text += " "
            case CMARK_NODE_PARAGRAPH, CMARK_NODE_HEADING,
                CMARK_NODE_ITEM where !entering:
                text += " "
            default: break
            }
        }
        let words = text.split(whereSeparator: \.isWhitespace)
        var result = ""
        for word in words {
            if result.count + word.count + 1 > limit { return result + "…" }
            result += result.isEmpty ? String(word) : " " + word
        }
        return result
    }

    private static func rewrite(_ document: OpaquePointer) {
        var images: [OpaquePointer] = []
        var unwrap: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(document) else { return }
        while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator) else { continue }
            switch cmark_node_get_type(node) {
            case CMARK_NODE_IMAGE where cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER:
                // An image inside a link or image would become a link inside a link: keep its text only.
                if isSafe(url: cmark_node_get_url(node)) && !isInsideLink(node) {
                    images.append(node)
                } else {
                    unwrap.append(node)
                }
            case CMARK_NODE_LINK where cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER:
                if !isSafe(url: cmark_node_get_url(node)) { unwrap.append(node) }
            case CMARK_NODE_HEADING where cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER:
                cmark_node_set_heading_level(node, min(cmark_node_get_heading_level(node) + 2, 6))
            default: break
            }
        }
        cmark_iter_free(iterator)
        // A link or image whose target cmark would blank out (javascript:, data:, …) becomes its
        // plain text. Children are moved out, never freed, so nested nodes stay valid.
        for node in unwrap {
            while let child = cmark_node_first_child(node) {
                cmark_node_insert_before(node, child)
            }
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
        for image in images {
            guard let link = cmark_node_new(CMARK_NODE_LINK) else { continue }
            cmark_node_set_url(link, cmark_node_get_url(image))
            cmark_node_set_title(link, cmark_node_get_title(image))
            while let child = cmark_node_first_child(image) {
                cmark_node_append_child(link, child)
            }
            if cmark_node_first_child(link) == nil, let text = cmark_node_new(CMARK_NODE_TEXT) {
                cmark_node_set_literal(text, "image")
                cmark_node_append_child(link, text)
            }
            cmark_node_replace(image, link)
            cmark_node_free(image)
        }
    }
}
