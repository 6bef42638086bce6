import Foundation
import GalleryConfig
import GalleryOutput
import Testing

/// The map page (`images.showLocation`): Leaflet from Debian, every located photo, and no position
/// anywhere without the setting.
@Suite("Map page")
struct MapPageTests {
    /// Six photos with EXIF GPS (Tests/Fixtures/map) and one without.
    static var entries: [[String: Any]] {
        (1...6).map { ["id": "m\($0)", "title": "Located \($0)", "image": "photos/located-\($0).jpg"] }
            + [["id": "nowhere", "title": "Nowhere", "image": "photos/photo-1.jpg"]]
    }

    static func site(showLocation: Bool, extra: [String: Any] = [:]) throws -> FixtureSite {
        var config: [String: Any] = [
            "images": ["thumbnail": 64, "preview": 120, "widths": [80], "showLocation": showLocation]
        ]
        config.merge(extra) { _, new in new }
        let site = try FixtureSite.make(entries: entries, config: config)
        let map = Fixtures.url("map")
        for number in 1...6 {
            try FileManager.default.copyItem(
                at: map.appendingPathComponent("located-\(number).jpg"),
                to: site.folder.appendingPathComponent("photos/located-\(number).jpg"))
        }
        return site
    }

    static let leafletInstalled = FileManager.default.fileExists(
        atPath: "/usr/share/javascript/leaflet/leaflet.markercluster.min.js")

    @Test(
        .enabled(
            if: leafletInstalled || ProcessInfo.processInfo.environment["CI"] != nil,
            "needs libjs-leaflet and libjs-leaflet.markercluster; see .ci/run"))
    func mapPageListsEveryLocatedPhotoWithLeafletFromDebian() async throws {
        let site = try Self.site(
            showLocation: true,
            extra: [
                "map": [
                    "tileURL": "https://tiles.example.org/{z}/{x}/{y}.png",
                    "attribution": "Tiles <by> Example"
                ]
            ])
        _ = try await site.build()
        let page = try site.read("map/index.html")
        let items = page.components(separatedBy: "<li id=\"p-").count - 1
        #expect(items == 6)
        #expect(page.contains(#"data-tiles="https://tiles.example.org/{z}/{x}/{y}.png""#))
        #expect(page.contains(#"data-attribution="Tiles &lt;by&gt; Example""#))
        // Leaflet is loaded on this page only, from the copies the build made.
        let files = site.outputFiles()
        for name in ["LICENSE-leaflet.txt", "LICENSE-markercluster.txt", "images/marker-icon.png"] {
            #expect(files.contains("static/leaflet/\(name)"), "\(name)")
        }
        let leaflet = try #require(files.first { $0.hasPrefix("static/leaflet/leaflet.") && $0.hasSuffix(".js") })
        #expect(
            try Data(contentsOf: site.output.appendingPathComponent(leaflet))
                == Data(contentsOf: URL(fileURLWithPath: "/usr/share/javascript/leaflet/leaflet.min.js")))
        #expect(page.contains("../\(leaflet)"))
        #expect(try site.read("static/leaflet/LICENSE-leaflet.txt").contains("BSD"))
        #expect(!(try site.read("index.html")).contains("leaflet"))
        #expect(!(try site.read("photos/m1/index.html")).contains("leaflet"))

        // The data: six rows, the photos' own positions.
        let data = try site.read("map/photos.js")
        #expect(data.hasPrefix("window.galleryMapPhotos = [["))
        #expect(data.components(separatedBy: "\"photos/m").count - 1 == 12)  // page and thumbnail of each
        #expect(data.contains("35.6812") && data.contains("139.7671"))
        #expect(!data.contains("nowhere"))

        // Photo pages link their spot on the map; the unlocated one does not, and the nav has the map.
        #expect(try site.read("photos/m6/index.html").contains(#"href="../../map/index.html#p-m6""#))
        #expect(!(try site.read("photos/nowhere/index.html")).contains("map/index.html#"))
        #expect(try site.read("index.html").contains(#"<a href="map/index.html">Map</a>"#))
        #expect(try site.brokenLinks() == [])
    }

    @Test func withoutShowLocationNothingCarriesAPosition() async throws {
        let site = try Self.site(showLocation: false)
        _ = try await site.build()
        let files = site.outputFiles()
        #expect(!files.contains { $0.hasPrefix("map/") || $0.hasPrefix("static/leaflet/") })
        for file in files
        where file.hasSuffix(".html") || file.hasSuffix(".js") || file.hasSuffix(".json") || file.hasSuffix(".xml") {
            let text = try site.read(file)
            #expect(
                !text.contains("35.68") && !text.contains("139.76") && !text.contains("galleryMapPhotos = "), "\(file)")
        }
    }

    @Test func aMissingLibraryNamesTheDebianPackage() throws {
        let empty = try Fixtures.temporaryFolder()
        let error = #expect(throws: MapLibraryError.self) { try MapLibrary.staticFiles(needed: true, root: empty) }
        #expect(error?.package == "libjs-leaflet")
        #expect(error?.description.contains("apt-get install libjs-leaflet libjs-leaflet.markercluster") == true)
        #expect(try MapLibrary.staticFiles(needed: false, root: empty).isEmpty)
    }

    @Test func tileURLMustBeATemplate() throws {
        let bad = #expect(throws: ConfigError.self) {
            try ThemeStringsTests.config(
                #"{"map": {"tileURL": "javascript:alert(1)//{z}{x}{y}"}, "source": {"type": "folder", "path": "p"}}"#)
        }
        #expect(bad?.key == "map.tileURL")
        #expect(throws: ConfigError.self) {
            try ThemeStringsTests.config(
                #"{"map": {"tileURL": "https://t.example/{z}/{x}.png"}, "source": {"type": "folder", "path": "p"}}"#)
        }
        let config = try ThemeStringsTests.config(#"{"source": {"type": "folder", "path": "p"}}"#)
        #expect(config.map.tileURL == "https://tile.openstreetmap.org/{z}/{x}/{y}.png")
    }
}
