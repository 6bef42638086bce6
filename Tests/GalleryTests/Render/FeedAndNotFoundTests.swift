import Foundation
import Testing

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The Atom feed's links stand on their own (no `xml:base`), and `404.html` is styled wherever it is served.
@Suite("Feed links and the 404 page")
struct FeedAndNotFoundTests {
    /// Every `href` attribute in the feed, and every `src` inside its (escaped) entry content.
    static func links(_ feed: String) throws -> [String] {
        var found: [String] = []
        for (pattern, group) in [(#"href="([^"]*)""#, 1), (#"(src|href)=&quot;(.*?)&quot;"#, 2)] {
            let expression = try NSRegularExpression(pattern: pattern)
            for match in expression.matches(in: feed, range: NSRange(feed.startIndex..., in: feed)) {
                found.append(String(feed[Range(match.range(at: group), in: feed)!]))
            }
        }
        return found
    }

    @Test func feedLinksAreAbsoluteWithAnImageEnclosure() async throws {
        let site = try FixtureSite.make(entries: SiteSectionsTests.albumEntries)
        _ = try await site.build()
        let feed = try site.read("feed.xml")
        #expect(XMLElements(Data(feed.utf8)).wellFormed)
        #expect(!feed.contains("xml:base"))
        let links = try Self.links(feed)
        #expect(links.count >= 2 + 6 * 4)
        #expect(links.allSatisfy { $0.hasPrefix("https://example.com/gallery/") }, "\(links)")
        #expect(
            feed.contains(
                #"<link rel="self" type="application/atom+xml" href="https://example.com/gallery/feed.xml"/>"#))
        #expect(
            feed.contains(#"<link rel="alternate" type="text/html" href="https://example.com/gallery/photos/p5/"/>"#))

        // One enclosure per entry, naming a JPEG the site really has.
        let enclosure = try NSRegularExpression(
            pattern: #"<link rel="enclosure" type="image/jpeg" href="https://example\.com/gallery/([^"]+)"/>"#)
        let matches = enclosure.matches(in: feed, range: NSRange(feed.startIndex..., in: feed))
        #expect(matches.count == 6)
        for match in matches {
            let path = String(feed[Range(match.range(at: 1), in: feed)!])
            #expect(path.hasSuffix(".jpg") && site.outputFiles().contains(path), "\(path)")
        }
    }

    @Test func withoutBaseURLTheFeedLinksRelativeToTheSiteRoot() async throws {
        let site = try FixtureSite.make(entries: SiteSectionsTests.albumEntries, config: ["baseURL": NSNull()])
        _ = try await site.build()
        let feed = try site.read("feed.xml")
        #expect(!feed.contains("xml:base") && !feed.contains("https://example.com"))
        #expect(feed.contains(#"<link rel="alternate" type="text/html" href="photos/p5/index.html"/>"#))
        #expect(feed.contains(#"<link rel="enclosure" type="image/jpeg" href="photos/p5/"#))
    }

    @Test func notFoundPageCarriesItsStylesheet() async throws {
        let site = try FixtureSite.make(entries: SiteSectionsTests.albumEntries)
        _ = try await site.build()
        let page = try site.read("404.html")
        let css = try #require(site.outputFiles().first { $0.hasPrefix("static/style.") && $0.hasSuffix(".css") })
        // The stylesheet is inlined, not linked through the absolute baseURL that a preview cannot reach.
        let inlined =
            "data:text/css;base64,"
            + (try Data(contentsOf: site.output.appendingPathComponent(css))).base64EncodedString()
        #expect(page.contains(#"<link rel="stylesheet" href="\#(inlined)">"#))
        #expect(!page.contains("/static/style."))
        // Its links still work at any path.
        #expect(page.contains(#"href="https://example.com/gallery/index.html""#))
        // Other pages link the stylesheet as before.
        #expect(try site.read("index.html").contains(#"<link rel="stylesheet" href="\#(css)">"#))
    }
}
