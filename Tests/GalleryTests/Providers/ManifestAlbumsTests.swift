import Foundation
import GalleryModel
import GalleryProviders
import GalleryRender
import Testing

/// The manifest's top-level `albums` object: parsed, cleaned, and every bad value reported and
/// skipped; and whole builds of a nested manifest, rebuilt byte for byte.
@Suite("Manifest albums")
struct ManifestAlbumsTests {
    static func decode(_ json: String) throws -> Manifest {
        try ManifestDocument.read(
            .data(Data(json.utf8)), mapper: ManifestEntryMapper(resolver: .base(URL(string: "https://example.com/")!)))
    }

    @Test func albumSettingsAreParsedAndBadValuesReported() throws {
        let manifest = try Self.decode(
            #"""
            {"photos": [{"id": "p1", "image": "p1.jpg", "album": "2024/Iceland"}],
             "albums": {
               "2024/Iceland": {"title": " Iceland <trip> ", "description": "**Ring road**", "cover": "p1", "sort": "-name",
                                "showInHome": false},
               "2024/Iceland//": {"title": "The same album, written loosely"},
               "2023": {"sort": "sideways", "showInHome": "no", "cover": "../etc", "title": 42, "colour": "red"},
               "../..": {"title": "Nowhere"},
               "2022": "not an object",
               "../2021": {"title": "Twenty-one"}
             }}
            """#)
        #expect(manifest.photos.map(\.id) == ["p1"])
        let iceland = try #require(manifest.albums["2024/Iceland"])
        #expect(
            iceland
                == AlbumInfo(
                    title: "Iceland <trip>", description: "**Ring road**", cover: "p1",
                    sort: PhotoSort(key: .name, descending: true), showInHome: false))
        // Each bad value is left out; the rest of its album is kept.
        #expect(manifest.albums["2023"] == AlbumInfo())
        #expect(manifest.albums["2021"]?.title == "Twenty-one")
        #expect(Set(manifest.albums.keys) == ["2024/Iceland", "2023", "2021"])
        let reasons = manifest.issues.map { "\($0.item): \($0.reason)" }
        #expect(manifest.issues.count == 8, "\(reasons)")
        for expected in [
            #"albums["2023"]: "sort" "sideways" is not"#, #"albums["2023"]: "showInHome" should be true or false"#,
            #"albums["2023"]: "cover" "../etc" is not a photo id"#, #"albums["2023"]: "title" should be a string"#,
            #"albums["2023"]: unknown album setting "colour""#, #"albums["../.."]: not an album path"#,
            #"albums["2022"]: expected an object"#, #"albums["2024/Iceland//"]: the same album as another key"#
        ] {
            #expect(reasons.contains { $0.hasPrefix(expected) }, "\(expected) in \(reasons)")
        }
    }

    /// A manifest's `rating` (Lightroom's stars) feeds `sort: "rating"`; values outside -1…5 are left out.
    @Test func ratingsAreReadAndCapped() throws {
        let manifest = try Self.decode(
            #"""
            [{"id": "a", "image": "a.jpg", "rating": 5}, {"id": "b", "image": "b.jpg", "rating": "3"},
             {"id": "c", "image": "c.jpg", "rating": 7}, {"id": "d", "image": "d.jpg", "rating": 2.5},
             {"id": "e", "image": "e.jpg", "rating": -1}, {"id": "f", "image": "f.jpg"}]
            """#)
        #expect(manifest.photos.map(\.rating) == [5, 3, nil, nil, -1, nil])
        let order = PhotoOrder.sorted(Array(manifest.photos.indices), by: PhotoSort(key: .rating, descending: true)) {
            manifest.photos[$0]
        }
        #expect(order.map { manifest.photos[$0].id } == ["a", "b", "e", "c", "d", "f"])
    }

    @Test func albumsOfTheWrongShapeAreReportedNotFatal() throws {
        let manifest = try Self.decode(#"{"photos": [{"id": "p1", "image": "p1.jpg"}], "albums": ["2024"]}"#)
        #expect(manifest.photos.count == 1)
        #expect(manifest.albums.isEmpty)
        #expect(manifest.issues.map(\.item) == ["albums"])
        // A bare array, and `"albums": null`, have no settings and no issue.
        #expect(try Self.decode(#"[{"id": "p1", "image": "p1.jpg"}]"#).issues.isEmpty)
        #expect(try Self.decode(#"{"photos": [], "albums": null}"#).issues.isEmpty)
        // Far too many albums are cut, and said so.
        let many = (0...ManifestEntryMapper.maxAlbums).map { #""a\#($0)": {}"# }.joined(separator: ",")
        let capped = try Self.decode(#"{"photos": [], "albums": {\#(many)}}"#)
        #expect(capped.albums.count == ManifestEntryMapper.maxAlbums)
        #expect(capped.issues.map(\.item) == ["albums"])
    }
}

extension LoadSensitive {
    @Suite("Album sites", .serialized)
    struct AlbumSiteTests {
        static var entries: [[String: Any]] {
            [
                [
                    "id": "d1", "title": "Day one", "image": "photos/photo-1.jpg", "album": "2024/Iceland/Day 1",
                    "takenAt": "2024-06-01"
                ],
                [
                    "id": "d2", "title": "Day two", "image": "photos/photo-2.jpg", "album": "2024/Iceland/Day 2",
                    "takenAt": "2024-06-02"
                ],
                ["id": "ice", "title": "Ice", "image": "photos/photo-3.jpg", "album": "2024/Iceland"],
                ["id": "home", "title": "Home", "image": "photos/photo-4.jpg", "album": "../Home//Garden"]
            ]
        }

        static func writeManifest(_ site: FixtureSite, albums: [String: Any]) throws {
            try JSONSerialization.data(
                withJSONObject: ["photos": entries, "albums": albums], options: [.prettyPrinted, .sortedKeys]
            )
            .write(to: site.folder.appendingPathComponent("manifest.json"))
        }

        @Test func nestedManifestBuildsAndRebuildsIdentically() async throws {
            let site = try FixtureSite.make(entries: Self.entries)
            try Self.writeManifest(
                site,
                albums: [
                    "2024/Iceland": ["title": "Iceland", "cover": "d2", "sort": "-name"],
                    "Home": ["showInHome": false, "sort": "upwards"]
                ])
            let cold = try await site.build()
            #expect(cold.photosPublished == 4)
            #expect(cold.failures.map(\.id) == [#"albums["Home"]"#])
            let files = Set(site.outputFiles())
            for path in [
                "albums/index.html", "albums/2024/index.html", "albums/2024/iceland/index.html",
                "albums/2024/iceland/day-1/index.html", "albums/home/index.html", "albums/home/garden/index.html"
            ] {
                #expect(files.contains(path), "no \(path)")
            }
            #expect(try site.brokenLinks() == [])
            #expect(!(try site.read("index.html")).contains("photos/home/"))
            #expect(try site.read("albums/2024/index.html").contains(#"<img src="../../photos/d2/"#))

            let hash = try site.treeHash()
            let again = try await site.build()
            #expect(again.pagesRendered == 0 && again.pagesReused == cold.pages)
            #expect(try site.treeHash() == hash)

            // Only the album settings change: the pages that show them are made again, and the site
            // is what a clean build makes.
            try Self.writeManifest(
                site,
                albums: [
                    "2024/Iceland": ["title": "Ísland", "cover": "d2", "sort": "-name"],
                    "Home": ["showInHome": false]
                ])
            let retitled = try await site.build()
            #expect(retitled.pagesRendered > 0 && retitled.pagesRendered < cold.pages)
            #expect(
                try site.read("albums/2024/iceland/index.html").contains(#"<h1 class="gallery-heading">Ísland</h1>"#))
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))

            // A new site-wide sort reorders the home grid, and the site is still a clean build's.
            #expect(AlbumFixture.tileIDs(try site.read("index.html")) == ["d2", "d1", "ice"])
            try site.updateConfig(["sort": "name"])
            let renamed = try await site.build()
            #expect(renamed.pagesRendered > 0)
            #expect(AlbumFixture.tileIDs(try site.read("index.html")) == ["d1", "d2", "ice"])
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))
        }
    }
}
