import Foundation
import Testing

/// The theme's buttons draw their icons as inline SVG, never as a character that the reader's fonts
/// may lack: the full-screen button was ⛶ (U+26F6), which no font on a stock Debian, and so no
/// engine there, could draw (issue 29, 5.).
@Suite("Icons")
struct IconTests {
    /// Each `<button>` of `html`, and its visible text: what is left once its icons and its
    /// screen-reader words are taken out.
    static func buttons(_ html: String) -> [(button: String, visible: String)] {
        html.matches(of: /<button\b[^>]*>(.*?)<\/button>/.dotMatchesNewlines()).map { match in
            let inner = String(match.output.1)
            let visible = inner.replacing(/<svg\b.*?<\/svg>/.dotMatchesNewlines(), with: "")
                .replacing(/<span class="[^"]*visually-hidden[^"]*">.*?<\/span>/.dotMatchesNewlines(), with: "")
                .replacing(/<[^>]+>/, with: "")
            return (String(match.output.0), visible)
        }
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
}
