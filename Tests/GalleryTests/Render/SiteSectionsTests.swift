import Foundation
import FoundationXML
import GalleryModel
import GalleryRender
import Testing

#if canImport(FoundationXML)
#endif

/// Albums, tags, feed, sitemap, search index, link previews and fingerprinted assets of whole builds.
@Suite("Site sections and publishing files")
struct SiteSectionsTests {
    /// Five photos in one album, so the album has two pages at three a page.
    static var albumEntries: [[String: Any]] {
        (1...6).map { number in
            var entry: [String: Any] = [
                "id": "p\(number)", "title": "Photo \(number)", "image": "photos/photo-\(number).jpg",
                "tags": number.isMultiple(of: 2) ? ["Even", "海"] : ["odd"]
            ]
            if number <= 5 { entry["album"] = "Big <Album>" }
            if number == 6 { entry["album"] = "big album" }
            if number == 3 { entry["takenAt"] = "2020-02-03" }
            if number == 5 { entry["takenAt"] = "2021-01-01T08:00:00+01:00" }
            return entry
        }
    }

    @Test func albumsAndTagsGetPagedPagesAndIndexes() async throws {
        let site = try FixtureSite.make(entries: Self.albumEntries)
        _ = try await site.build()
        let files = Set(site.outputFiles())
        // "Big <Album>" and "big album" slug alike; the second gets a suffix.
        for path in [
            "albums/index.html", "albums/big-album/index.html", "albums/big-album/page/2/index.html",
            "albums/big-album-2/index.html", "tags/index.html", "tags/even/index.html", "tags/odd/index.html"
        ] {
            #expect(files.contains(path), "no \(path)")
        }
        #expect(!files.contains("albums/big-album/page/3/index.html"))
        // A tag in another script gets a transliterated slug (`PhotoID.ascii`), not a hash.
        #expect(files.contains("tags/hai/index.html"))
        #expect(try site.read("tags/hai/index.html").contains("Tagged “海”"))

        let album = try site.read("albums/big-album/index.html")
        #expect(album.contains("<h1 class=\"gallery-heading\">Big &lt;Album&gt;</h1>"))
        #expect(album.contains("5 photos"))
        #expect(album.components(separatedBy: "class=\"tile\"").count - 1 == 3)
        #expect(album.contains(#"<link rel="next" href="../../albums/big-album/page/2/index.html">"#))
        #expect(album.contains(#"href="../../photos/p1/index.html""#))
        let albumPage2 = try site.read("albums/big-album/page/2/index.html")
        #expect(albumPage2.contains(#"href="../../../../photos/p4/index.html""#))
        #expect(
            albumPage2.contains(
                #"<li><a href="../../../../albums/index.html">Albums</a></li><li aria-current="page">Big &lt;Album&gt;</li>"#
            ))

        let albums = try site.read("albums/index.html")
        #expect(albums.contains("<span class=\"name\">Big &lt;Album&gt;</span> <span class=\"count\">5 photos</span>"))
        #expect(albums.contains(#"href="../albums/big-album-2/index.html""#))
        let tags = try site.read("tags/index.html")
        #expect(tags.contains(#"<a href="../tags/even/index.html" rel="tag">Even <span class="count">(3)</span></a>"#))

        let photo = try site.read("photos/p2/index.html")
        #expect(photo.contains(#"<dd><a href="../../albums/big-album/index.html">Big &lt;Album&gt;</a></dd>"#))
        #expect(photo.contains(#"<a href="../../tags/even/index.html" rel="tag">Even</a>"#))
        #expect(try site.brokenLinks() == [])
    }

    @Test func collectionSlugsAreUniqueAndStable() {
        #expect(PhotoCollection.slug("Summer Trip 2024") == "summer-trip-2024")
        #expect(PhotoCollection.slug("海") == PhotoCollection.slug("海"))
        #expect(PhotoCollection.slug("海") != PhotoCollection.slug("山"))
        // Other scripts and accents are transliterated, not dropped; a name of no letters gets a hash.
        #expect(PhotoCollection.slug("海") == "hai")
        #expect(PhotoCollection.slug("accentué") == "accentue")
        #expect(PhotoCollection.slug("hélicoïde") == "helicoide")
        #expect(PhotoCollection.slug("Straße Øresund") == "strasse-oresund")
        #expect(PhotoCollection.slug("Москва") == "moskva")
        #expect(PhotoID.slug("Photos/Ærø/Łódź.jpg") == "photos-aero-lodz-jpg")
        #expect(PhotoCollection.slug("🌊").hasPrefix("t-"))
        #expect(PhotoID.isValid(PhotoCollection.slug("🌊")))
    }

    @Test func feedSitemapRobotsAndSearchIndex() async throws {
        // The search index lists photos in the site's order; this test reads it in manifest order.
        let site = try FixtureSite.make(entries: Self.albumEntries, config: ["sort": "source"])
        _ = try await site.build()

        // The Atom feed is well-formed XML; dated photos come first, newest first.
        let feed = try Data(contentsOf: site.output.appendingPathComponent("feed.xml"))
        let parsed = XMLElements(feed)
        #expect(parsed.wellFormed)
        #expect(parsed.values("id").first == "https://example.com/gallery/")
        #expect(
            Array(parsed.values("id").dropFirst().prefix(2))
                == ["https://example.com/gallery/photos/p5/", "https://example.com/gallery/photos/p3/"])
        #expect(parsed.values("updated").first == "2021-01-01T08:00:00+01:00")
        #expect(parsed.values("entry").count == 6)
        let feedText = String(decoding: feed, as: UTF8.self)
        #expect(!feedText.contains("xml:base"))
        #expect(feedText.contains("&lt;img src=&quot;https://example.com/gallery/photos/p5/"))

        let sitemap = XMLElements(try Data(contentsOf: site.output.appendingPathComponent("sitemap.xml")))
        #expect(sitemap.wellFormed)
        let folderIndexes = try site.folderIndexPages()
        let htmlPages = site.outputFiles().filter {
            $0.hasSuffix(".html") && $0 != "404.html" && !folderIndexes.contains($0)
        }
        #expect(sitemap.values("loc").count == htmlPages.count)
        #expect(sitemap.values("loc").allSatisfy { $0.hasPrefix("https://example.com/gallery/") })
        #expect(sitemap.values("loc").contains("https://example.com/gallery/albums/big-album/page/2/"))
        #expect(try site.read("robots.txt").contains("Sitemap: https://example.com/gallery/sitemap.xml"))

        let index = try JSONSerialization.jsonObject(
            with: Data(contentsOf: site.output.appendingPathComponent("search.json")))
        let photos = try #require((index as? [String: Any])?["photos"] as? [[String: Any]])
        #expect(photos.count == 6)
        #expect(photos[1]["title"] as? String == "Photo 2")
        #expect(photos[1]["tags"] as? [String] == ["Even", "海"])
        #expect(photos[1]["url"] as? String == "photos/p2/index.html")
        let script = try site.read("search-index.js")
        #expect(script.hasPrefix("window.gallerySearchIndex = {"))
        #expect(script.contains(try site.read("search.json")))

        // 404.html works at any path: its links are absolute under baseURL.
        let notFound = try site.read("404.html")
        #expect(notFound.contains(#"<a class="site-title" href="https://example.com/gallery/index.html">"#))
    }

    @Test func withoutBaseURLThereIsNoSitemapAndNoAbsoluteURL() async throws {
        let site = try FixtureSite.make(entries: Self.albumEntries, config: ["baseURL": NSNull()])
        _ = try await site.build()
        let files = site.outputFiles()
        #expect(!files.contains("sitemap.xml"))
        #expect(try site.read("robots.txt") == "User-agent: *\nDisallow:\n")
        for page in files where page.hasSuffix(".html") {
            let html = try site.read(page)
            #expect(!html.contains("example.com"), "\(page)")
            #expect(!html.contains("og:image"), "\(page)")
        }
        #expect(
            XMLElements(try Data(contentsOf: site.output.appendingPathComponent("feed.xml"))).values("id").last
                == "urn:galleryssg:photo:p6")
    }

    @Test func photoPagesHaveLinkPreviewsAndStructuredData() async throws {
        let site = try FixtureSite.make()
        _ = try await site.build()
        let photo = try site.read("photos/two/index.html")
        #expect(photo.contains(#"<meta property="og:type" content="article">"#))
        #expect(photo.contains(#"<meta name="twitter:card" content="summary_large_image">"#))
        let image = try #require(photo.firstMatch(of: /<meta property="og:image" content="([^"]+)">/))
        #expect(image.1.hasPrefix("https://example.com/gallery/photos/two/"))
        #expect(
            FileManager.default.fileExists(
                atPath: site.output.appendingPathComponent(
                    String(image.1.dropFirst("https://example.com/gallery/".count))
                ).path))
        let jsonLD = try #require(photo.firstMatch(of: /<script type="application\/ld\+json">(.*?)<\/script>/))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(jsonLD.1.utf8)) as? [String: Any])
        #expect(object["@context"] as? String == "https://schema.org")
        #expect(object["contentUrl"] as? String == "https://example.com/gallery/photos/two/original.jpg")
        #expect(object["url"] as? String == "https://example.com/gallery/photos/two/")
        #expect((object["width"] as? Int ?? 0) > 0)
        // The next photo's page and preview are for the viewer script to fetch, unless the reader
        // saves data (issue 14), so no <link rel="prefetch"> fetches them regardless.
        #expect(!photo.contains(#"rel="prefetch""#))
        #expect(photo.contains(#"<link rel="next" href="../../photos/three/index.html">"#))
        #expect(
            photo.contains(
                #"class="next" rel="next" href="../../photos/three/index.html" data-srcset="../../photos/three/"#))
    }

    @Test func cssAndJSAreFingerprintedAndSiteStaticFilesArePublished() async throws {
        let site = try FixtureSite.make(entries: Array(Self.albumEntries.prefix(2)))
        let templates = site.folder.appendingPathComponent("Templates/static")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "body { color: red; }".write(
            to: templates.appendingPathComponent("style.css"), atomically: true, encoding: .utf8)
        try "console.log(1)".write(to: templates.appendingPathComponent("extra.js"), atomically: true, encoding: .utf8)
        try Data([0x89, 0x50]).write(to: templates.appendingPathComponent("logo.png"))
        _ = try await site.build()
        let files = site.outputFiles()
        let css = try #require(files.first { $0.hasPrefix("static/style.") && $0.hasSuffix(".css") })
        #expect(css.count == "static/style.0123456789.css".count)
        #expect(try site.read(css) == "body { color: red; }")
        #expect(files.contains { $0.hasPrefix("static/extra.") && $0.hasSuffix(".js") && $0 != "static/extra.js" })
        #expect(files.contains("static/logo.png"))
        #expect(!files.contains("static/style.css"))
        #expect(try site.read("photos/p1/index.html").contains(#"<link rel="stylesheet" href="../../\#(css)">"#))
        let headers = try site.read("_headers")
        #expect(headers.contains("/\(css)\n  Cache-Control: public, max-age=31536000, immutable\n"))
        #expect(!headers.contains("logo.png"))
        #expect(Assets.templateKey("static/css/site-v2.css") == "css_site_v2_css")
    }

    @Test func feedDatesBecomeRFC3339() {
        #expect(Formatting.rfc3339("2018-04-02") == "2018-04-02T00:00:00Z")
        #expect(Formatting.rfc3339("2018-04-02 10:20") == "2018-04-02T10:20:00Z")
        #expect(Formatting.rfc3339("2018-04-02T10:20:30+02:00") == "2018-04-02T10:20:30+02:00")
        #expect(Formatting.rfc3339("2018:04:02 10:20:30") == nil)
        #expect(Formatting.rfc3339(nil) == nil)
    }
}

/// The text of every element of an XML document, by element name, read with Foundation's XMLParser.
final class XMLElements: NSObject, XMLParserDelegate {
    private var texts: [String: [String]] = [:]
    private var stack: [(name: String, text: String)] = []
    private(set) var wellFormed = false

    init(_ data: Data) {
        super.init()
        let parser = XMLParser(data: data)
        parser.delegate = self
        wellFormed = parser.parse()
    }

    func values(_ name: String) -> [String] { texts[name] ?? [] }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        stack.append((name, ""))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if !stack.isEmpty { stack[stack.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard let element = stack.popLast() else { return }
        texts[element.name, default: []].append(element.text.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
