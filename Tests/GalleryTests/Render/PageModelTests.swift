import Foundation
import GalleryConfig
import GalleryImaging
import GalleryKeys
import GalleryModel
import GalleryRender
import GalleryStore
import Mustache
import Testing

/// The page models: what templates can reach, what the page cache keys cover, the escaping and the
/// page list of long grids.
@Suite("Page models and keys")
struct PageModelTests {
    /// A renderer and the plan of a site with every optional value present, or with none.
    static func site(full: Bool, count: Int = 30, titles: [Int: String] = [:]) throws -> (SiteRenderer, SitePlan) {
        // Photos stay in list order ("sort": "source"), which the page numbers below count on.
        let fixture = try FixtureSite.make(
            entries: [],
            config: full
                ? [
                    "description": "All the <values>", "sort": "source",
                    "images": [
                        "thumbnail": 64, "preview": 120, "widths": [80], "webp": true, "avif": true,
                        "showLocation": true
                    ]
                ]
                : ["baseURL": NSNull(), "sort": "source"])
        let config = try SiteConfig.load(from: fixture.configURL, environment: [:])
        let theme = try Theme(overridesIn: nil)
        let renderer = try SiteRenderer(config: config, theme: theme, assets: Assets(staticFiles: theme.staticFiles))
        let items = (0..<count).map { index in
            let photo =
                full
                ? Photo(
                    id: "p\(index)", title: titles[index] ?? "Photo \(index) <&>",
                    description: "Some **Markdown** \(index)",
                    author: "Ana \"A\" O'Neil", authorURL: URL(string: "https://example.com/ana"),
                    takenAt: "2021-06-\(String(format: "%02d", index % 28 + 1))T10:20:00Z",
                    tags: ["sea", "tag-\(index % 3)"], album: "Album \(index % 2)",
                    license: License(
                        name: "CC BY 4.0", url: URL(string: "https://creativecommons.org/licenses/by/4.0/")),
                    image: .remote(URL(string: "https://img.example.com/\(index).jpg")!),
                    camera: CameraInfo(
                        make: "Canon", model: "EOS R5", lens: "RF 24-70", focalLength: 35, aperture: 2.8,
                        exposureTime: 0.004, iso: 200),
                    location: GeoPoint(latitude: 59.9, longitude: 10.7),
                    sourcePage: URL(string: "https://www.flickr.com/photos/x/\(index)"))
                : Photo(
                    id: "p\(index)", title: titles[index], image: .file(URL(fileURLWithPath: "/photos/\(index).jpg")))
            let display = PixelSize(width: 1600 + index, height: 1200)
            return GalleryItem(
                photo: photo, displaySize: display,
                plan: DerivativePlan(display: display, settings: config.images, folder: "photos/p\(index)"),
                averageColor: "#336699", placeholderKey: Fixtures.key(photo.id),
                original: full ? .remote("https://img.example.com/\(index).jpg") : .none)
        }
        return (renderer, try renderer.plan(items, placeholders: Fixtures.placeholder))
    }

    /// Every stored property of every model, at any depth, is answered by `child(named:)` with the
    /// value Mirror finds, which is what swift-mustache would use without the conformances.
    @Test(arguments: [true, false])
    func templatesReachEveryModelField(full: Bool) throws {
        let (renderer, plan) = try Self.site(full: full)
        var checked = Set<String>()
        for page in plan.pages {
            let model = try renderer.model(of: page, in: plan)
            try Self.expectFields(of: model.context, at: model.path, checked: &checked)
        }
        // Every model type was seen, so a field added anywhere is checked.
        #expect(
            checked.isSuperset(of: [
                "GridContext", "PhotoPageContext", "NotFoundContext", "FeedContext", "FeedEntry",
                "SiteContext", "PageContext", "SocialCard", "GridTile", "PhotoContext", "NeighborLink",
                "PageNumber", "Pagination"
            ]), "\(checked.sorted())")
        if full {
            #expect(
                checked.isSuperset(of: [
                    "AlbumsContext", "TagsContext", "CollectionTile", "TagLink", "MetadataRow",
                    "SitemapContext"
                ]), "\(checked.sorted())")
        }
    }

    static func expectFields(of value: Any, at path: String, checked: inout Set<String>) throws {
        if let parent = value as? MustacheParent, !(value is [String: String]) {
            checked.insert("\(type(of: value))")
            for child in Mirror(reflecting: value).children {
                let label = try #require(child.label)
                // Theme.warnings() calls a name outside this list one that renders as nothing.
                #expect(
                    TemplateFields.names.contains(label),
                    "\(type(of: value)).\(label) is missing from TemplateFields.names")
                let expected = unwrap(child.value)
                let found = parent.child(named: label)
                #expect((expected == nil) == (found == nil), "\(path): \(type(of: value)).\(label)")
                guard let expected, let found else { continue }
                if label == "jsonLD" {
                    let json = try #require(found as? String, "\(path): jsonLD is text for the template")
                    #expect(json == (try (expected as? ImageObject)?.scriptSafeJSON()))
                } else if expected is MustacheParent || expected is [Any] {
                    #expect("\(type(of: expected))" == "\(type(of: found))", "\(path): \(type(of: value)).\(label)")
                    try expectFields(of: found, at: path, checked: &checked)
                } else {
                    #expect(
                        String(describing: expected) == String(describing: found),
                        "\(path): \(type(of: value)).\(label)")
                }
            }
        } else if let array = value as? [Any] {
            for element in array { try expectFields(of: element, at: path, checked: &checked) }
        }
    }

    private static func unwrap(_ value: Any) -> Any? {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return value }
        return mirror.children.first.map(\.value)
    }

    /// The byte-level escaper gives what swift-mustache's HTML escaping gives.
    @Test func fastEscapingMatchesMustache() throws {
        let template = try MustacheTemplate(string: "{{value}}")
        let samples = [
            "", "plain", FixtureSite.hostileTitle, "a & b < c > d \" e ' f", "&amp;&lt;", "海 <🌊> é",
            String(repeating: "x<", count: 500), "data:image/jpeg;base64,/9j/4AAQ+/=="
        ]
        for sample in samples {
            #expect(FastHTMLEscaping.escape(sample) == template.render(["value": sample]), "\(sample)")
        }
        // A "<" carrying a combining mark is one Character, which the character-based escaper misses.
        #expect(FastHTMLEscaping.escape("<\u{301}script>") == "&lt;\u{301}script&gt;")
    }

    struct Nested: Encodable {
        var lists: [[String]]
        var note: String?
        var table: [String: String]
    }

    @Test func inputDigestTellsValuesApart() throws {
        func key(_ value: Nested) throws -> Digest {
            var key = CacheKey("test")
            try InputDigest.add(value, to: &key)
            return key.finish()
        }
        let base = Nested(lists: [["a"], ["b"]], note: nil, table: ["x": "1", "y": "2"])
        #expect(try key(base) == key(base))
        #expect(try key(base) != key(Nested(lists: [["a", "b"]], note: nil, table: base.table)))
        #expect(try key(base) != key(Nested(lists: [["a"], ["b"]], note: "", table: base.table)))
        #expect(try key(base) != key(Nested(lists: [["ab"]], note: nil, table: base.table)))
        // A dictionary's own order changes from process to process; the key does not.
        var reordered: [String: String] = [:]
        for index in (0..<50).reversed() { reordered["k\(index)"] = "\(index)" }
        var ordered: [String: String] = [:]
        for index in 0..<50 { ordered["k\(index)"] = "\(index)" }
        #expect(
            try key(Nested(lists: [], note: nil, table: ordered)) == key(Nested(lists: [], note: nil, table: reordered))
        )
        #expect(
            try key(Nested(lists: [], note: nil, table: ["a": "bc"]))
                != key(Nested(lists: [], note: nil, table: ["ab": "c"])))
    }

    /// Retitling one photo changes the input keys of exactly the pages that show its title.
    @Test func retitlingChangesOnlyThePagesThatShowTheTitle() throws {
        func keys(_ titles: [Int: String]) throws -> [String: Digest] {
            let (renderer, plan) = try Self.site(full: true, titles: titles)
            var keys: [String: Digest] = [:]
            for page in plan.pages {
                let model = try renderer.model(of: page, in: plan)
                keys[model.path] = try model.inputKey(templatesKey: renderer.templatesKey)
            }
            return keys
        }
        let before = try keys([:])
        #expect(try keys([:]) == before)
        let after = try keys([7: "A new title"])
        let changed = Set(before.keys.filter { before[$0] != after[$0] })
        // Photo 7 is on grid page 3 (page size 3), on page 2 of album 1 (the odd photos), page 3 of
        // tag "sea" (every photo) and page 1 of tag "tag-1"; its neighbours show its title in
        // their prev/next links. It is not among the feed's 20 latest (days 9 to 28). The site shows
        // locations, and the map page lists every located photo by title.
        let expected: Set<String> = [
            "photos/p7/index.html", "photos/p6/index.html", "photos/p8/index.html", "page/3/index.html",
            "albums/album-1/page/2/index.html", "tags/sea/page/3/index.html", "tags/tag-1/index.html",
            "map/index.html"
        ]
        #expect(changed == expected, "\(changed.sorted())")
    }

    @Test func longGridsListPagesAroundTheCurrentOne() {
        #expect(SiteRenderer.pageWindow(1, of: 1) == [1])
        #expect(SiteRenderer.pageWindow(1, of: 10) == [1, 2, 3, nil, 10])
        #expect(SiteRenderer.pageWindow(4, of: 10) == [1, 2, 3, 4, 5, 6, nil, 10])
        #expect(SiteRenderer.pageWindow(5, of: 10) == [1, 2, 3, 4, 5, 6, 7, nil, 10])
        #expect(SiteRenderer.pageWindow(6, of: 10) == [1, nil, 4, 5, 6, 7, 8, 9, 10])
        #expect(SiteRenderer.pageWindow(10, of: 10) == [1, nil, 8, 9, 10])
        #expect(SiteRenderer.pageWindow(2000, of: 4167) == [1, nil, 1998, 1999, 2000, 2001, 2002, nil, 4167])
    }
}

@Suite("Fixed-point formatting")
struct FixedFormattingTests {
    /// Tile styles and aspect ratios are written without `String(format:)`; for the aspect ratios
    /// of real photo sizes they read exactly as `%.Nf` would.
    @Test func fixedMatchesPrintfForPhotoAspectRatios() {
        var mismatches: [String] = []
        for width in stride(from: 100, through: 6000, by: 37) {
            for height in stride(from: 100, through: 6000, by: 41) {
                let aspect = Double(width) / Double(height)
                for (value, digits) in [(aspect * 100, 0), (aspect * SiteRenderer.rowHeightEm, 2), (aspect, 4)] {
                    let expected = String(format: "%.\(digits)f", value)
                    if Formatting.fixed(value, digits: digits) != expected { mismatches.append("\(value) \(digits)") }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
        #expect(Formatting.fixed(-2.5, digits: 0) == "-2")
        #expect(Formatting.fixed(0.125, digits: 2) == "0.12")
        #expect(Formatting.fixed(1.0005, digits: 4) == String(format: "%.4f", 1.0005))
    }
}
