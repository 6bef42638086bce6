import Foundation
import GalleryRender
import Testing

/// The theme's buttons draw their icons as inline SVG, never as a character that the reader's fonts
/// may lack: the full-screen button was ⛶ (U+26F6), which no font on a stock Debian, and so no
/// engine there, could draw (issue 29, 5.). Nor do its links: the photo page's previous / next
/// arrows, the page links under a grid and a breadcrumb's separators were characters too.
@Suite("Icons")
struct IconTests {
    /// Each `<button>` of `html`, and its visible text: what is left once its icons and its
    /// screen-reader words are taken out.
    static func buttons(_ html: String) -> [(button: String, visible: String)] {
        html.matches(of: /<button\b[^>]*>(.*?)<\/button>/.dotMatchesNewlines()).map { match in
            (String(match.output.0), visible(String(match.output.1)))
        }
    }

    /// Each link (`<a>`) of `html`, and its visible text.
    static func links(_ html: String) -> [(link: String, visible: String)] {
        html.matches(of: /<a\b[^>]*>(.*?)<\/a>/.dotMatchesNewlines()).map { match in
            (String(match.output.0), visible(String(match.output.1)))
        }
    }

    static func visible(_ inner: String) -> String {
        inner.replacing(/<svg\b.*?<\/svg>/.dotMatchesNewlines(), with: "")
            .replacing(/<span class="[^"]*visually-hidden[^"]*">.*?<\/span>/.dotMatchesNewlines(), with: "")
            .replacing(/<[^>]+>/, with: "")
    }

    /// Arrows, chevrons, close crosses and media symbols drawn as characters. "×" counts only as a
    /// control's whole text (a close button); in "1600 × 1067" it is a multiplication sign.
    static func glyphs(_ text: String) -> String {
        let arrows = text.unicodeScalars.filter { scalar in
            [
                0x2190...0x21FF, 0x2039...0x2039, 0x203A...0x203A, 0x00AB...0x00AB, 0x00BB...0x00BB, 0x2794...0x27BF,
                0x25B6...0x25C2, 0x23E9...0x23FA, 0x26F6...0x26F6, 0x2715...0x2717, 0x2A2F...0x2A2F, 0x2B05...0x2B07
            ]
            .contains { $0.contains(scalar.value) }
        }
        let close = text.trimmingCharacters(in: .whitespacesAndNewlines) == "×" ? "×" : ""
        return String(String.UnicodeScalarView(arrows)) + close
    }

    @Test func everyButtonOfTheGridAndThePhotoPageDrawsItsIconInSVG() async throws {
        let site = try await HTMLSnapshotTests.site(showLocation: false)
        for path in ["index.html", "photos/harbour/index.html"] {
            let found = Self.buttons(try site.read(path))
            #expect(found.count >= (path == "index.html" ? 1 : 4), "\(path): \(found.map(\.button))")
            for (button, visible) in found {
                #expect(button.contains("<svg class=\"icon\""), "\(path): a button without an SVG icon: \(button)")
                // Letters a site's language writes are fine; symbols and arrows (U+2000 on) are what fonts lack.
                let symbols = visible.unicodeScalars.filter { $0.value >= 0x2000 }
                #expect(symbols.isEmpty, "\(path): \(button) shows \(String(String.UnicodeScalarView(symbols)))")
            }
        }
    }

    /// Every link of a grid page with page links both ways, of a photo page with a breadcrumb and
    /// neighbours, and of an album page draws no arrow or cross as a character; the photo page's
    /// previous / next arrows are SVG; no stylesheet of the theme draws one as generated content.
    @Test func noLinkOrStylesheetDrawsAnArrowOrACrossAsACharacter() async throws {
        let site = try await HTMLSnapshotTests.site(showLocation: false)
        for path in ["index.html", "page/2/index.html", "photos/harbour/index.html", "albums/trips/coast/index.html"] {
            let html = try site.read(path)
            let found = Self.links(html) + Self.buttons(html).map { (link: $0.button, visible: $0.visible) }
            for (link, visible) in found {
                #expect(Self.glyphs(visible).isEmpty, "\(path): \(link) shows \(Self.glyphs(visible))")
            }
        }
        let photo = try site.read("photos/harbour/index.html")
        let steps = Self.links(photo).filter { $0.link.contains(#"rel="prev""#) || $0.link.contains(#"rel="next""#) }
        #expect(!steps.isEmpty && steps.allSatisfy { $0.link.contains("<svg class=\"icon\"") }, "\(steps.map(\.link))")
        let theme = try Theme(overridesIn: nil)
        for (name, data) in theme.staticFiles where name.hasSuffix(".css") {
            let css = String(decoding: data, as: UTF8.self)
            for match in css.matches(of: /content:\s*"([^"]*)"/) {
                #expect(Self.glyphs(String(match.output.1)).isEmpty, "\(name): \(match.output.0)")
            }
        }
    }
}
