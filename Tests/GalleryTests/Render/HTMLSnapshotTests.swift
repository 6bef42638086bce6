import Foundation
import Testing

/// The published HTML of a small fixture site, byte for byte against Tests/Fixtures/snapshots:
/// a grid page, a photo page, an album page and the map page. `GALLERYSSG_RECORD_SNAPSHOTS=1`
/// re-records them (`HTMLSnapshot`).
///
/// Everything in these pages comes from the manifest, the fixture photos, the config and the
/// embedded theme: no dates from the build clock, no version and no absolute path, so a build on
/// any machine, in any time zone or locale, gives the same bytes. The one exception is normalised
/// in `normalised(_:)`: the hashed names of the Leaflet files copied from Debian.
@Suite("HTML snapshots")
struct HTMLSnapshotTests {
    /// Three photos with EXIF GPS (Tests/Fixtures/map) in two albums, and one without a position.
    static var entries: [[String: Any]] {
        [
            [
                "id": "harbour", "title": "Harbour <at> dusk", "image": "photos/located-1.jpg",
                "description": "Boats *and* gulls",
                "author": "Ana", "tags": ["sea", "evening"], "license": "CC-BY-4.0",
                "takenAt": "2021-06-01T10:20:00+02:00",
                "album": "Trips/Coast"
            ],
            [
                "id": "cliff", "title": "Cliff", "image": "photos/located-2.jpg", "album": "Trips/Coast",
                "tags": ["sea"],
                "takenAt": "2021-06-02T09:00:00+02:00"
            ],
            [
                "id": "market", "title": "Market", "image": "photos/located-3.jpg", "album": "Trips/City",
                "takenAt": "2021-05-03T12:00:00Z"
            ],
            ["id": "nowhere", "title": "Nowhere", "image": "photos/photo-1.jpg", "takenAt": "2020-01-01T00:00:00Z"]
        ]
    }

    /// Builds the fixture site into a new temporary folder; with `showLocation`, photo pages show
    /// where each was taken and the site has a map page (which needs Debian's Leaflet).
    static func site(showLocation: Bool) async throws -> FixtureSite {
        let site = try FixtureSite.make(
            entries: entries,
            config: [
                "images": ["thumbnail": 64, "preview": 120, "widths": [80], "showLocation": showLocation],
                "map": ["tileURL": "https://tiles.example.org/{z}/{x}/{y}.png"]
            ])
        for number in 1...3 {
            try FileManager.default.copyItem(
                at: Fixtures.url("map/located-\(number).jpg"),
                to: site.folder.appendingPathComponent("photos/located-\(number).jpg"))
        }
        let report = try await site.build()
        #expect(report.failures.isEmpty, "\(report.failures)")
        return site
    }

    /// Leaflet and its marker-cluster plugin are copied from /usr/share/javascript with a hash of
    /// their bytes in the file name (`static/leaflet/leaflet.846e4ac69c.js`), so the map page names
    /// files that differ with the libjs-leaflet version installed. Only those hashes are replaced.
    static func normalised(_ html: String) -> String {
        html.replacingOccurrences(
            of: #"(static/leaflet/[^"/]+)\.[0-9a-f]{10}\.(css|js)""#, with: "$1.HASH.$2\"",
            options: .regularExpression)
    }

    @Test(
        "grid, photo and album pages",
        arguments: [
            ("index.html", "grid-index.html"),
            ("photos/harbour/index.html", "photo-harbour.html"),
            ("albums/trips/coast/index.html", "album-trips-coast.html")
        ])
    func page(_ path: String, _ snapshot: String) async throws {
        let site = try await Self.site(showLocation: false)
        try HTMLSnapshot.check(Self.normalised(try site.read(path)), named: snapshot)
    }

    @Test(
        "the map page",
        .enabled(
            if: MapPageTests.leafletInstalled || ProcessInfo.processInfo.environment["CI"] != nil,
            "needs libjs-leaflet and libjs-leaflet.markercluster; see .ci/run"))
    func mapPage() async throws {
        let site = try await Self.site(showLocation: true)
        try HTMLSnapshot.check(Self.normalised(try site.read("map/index.html")), named: "map-index.html")
        // The photo page of the same site, with its position and its link to the map.
        try HTMLSnapshot.check(
            Self.normalised(try site.read("photos/harbour/index.html")), named: "photo-harbour-located.html")
    }

    /// The failure message: the first differing line, both versions, and how to re-record.
    @Test func aDifferenceNamesTheLineAndBothVersions() {
        let difference = HTMLSnapshot.firstDifference(expected: "a\nb\nc\n", actual: "a\nB\nc\n")
        #expect(difference?.line == 2 && difference?.expected == "\"b\"" && difference?.actual == "\"B\"")
        let shorter = HTMLSnapshot.firstDifference(expected: "a\nb", actual: "a")
        #expect(shorter?.line == 2 && shorter?.actual == "(end of file)", "\(String(describing: shorter))")
        let long = String(repeating: "x", count: 500)
        let cut = HTMLSnapshot.firstDifference(expected: long + "y", actual: long + "z")
        #expect(
            cut?.expected.hasPrefix("(column 501) …\"") == true && cut?.expected.hasSuffix("y\"") == true,
            "\(String(describing: cut))")
        #expect(HTMLSnapshot.firstDifference(expected: "same", actual: "same") == nil)
    }
}
