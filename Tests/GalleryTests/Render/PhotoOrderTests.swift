import Foundation
import GalleryConfig
import GalleryModel
import GalleryRender
import Testing

/// The site's `sort` and albums' own: dates in ISO 8601 and EXIF styles, undated photos, natural
/// name order, ratings, and the config key.
@Suite("Photo order")
struct PhotoOrderTests {
    func order(_ photos: [Photo], _ sort: String) throws -> [String] {
        let sort = try #require(PhotoSort(sort))
        return PhotoOrder.sorted(Array(photos.indices), by: sort) { photos[$0] }.map { photos[$0].id }
    }

    @Test func datesOfEveryStyleCompareAsInstants() {
        #expect(PhotoOrder.instant("1970-01-01T00:00:00Z") == 0)
        #expect(PhotoOrder.instant("1970-01-02") == 86_400)
        #expect(PhotoOrder.instant("2000-03-01") == 951_868_800)
        #expect(PhotoOrder.instant("1969-12-31T23:59:59Z") == -1)
        #expect(PhotoOrder.instant("1970-01-01T01:00:00+01:00") == 0)
        #expect(PhotoOrder.instant("1970-01-01T01:00:00+0100") == 0)
        #expect(PhotoOrder.instant("1969-12-31T23:00-01:00") == 0)
        #expect(PhotoOrder.instant("1970:01:01 00:00:10") == 10)
        #expect(PhotoOrder.instant("1970-01-01 00:00:00.5Z") == 0.5)
        #expect(PhotoOrder.instant("2016-03-01T10:00:00.000Z") == PhotoOrder.instant("2016:03:01 10:00:00"))
        for bad in ["", "yesterday", "2024-13-01", "2024-06-32", "2024/06/01", "2024-06:01", "24-06-01"] {
            #expect(PhotoOrder.instant(bad) == nil, "\(bad)")
        }
        #expect(PhotoOrder.instant(nil) == nil)
    }

    @Test func newestFirstPutsUndatedPhotosLastInSourceOrder() throws {
        let photos = [
            AlbumFixture.photo("undated"),
            AlbumFixture.photo("midnight", taken: "2024-06-01"),
            AlbumFixture.photo("offset", taken: "2024-06-01T10:00:00+02:00"),  // 08:00 UTC
            AlbumFixture.photo("garbage", taken: "last summer"),
            AlbumFixture.photo("exif", taken: "2024:06:01 09:00:00"),
            AlbumFixture.photo("zulu", taken: "2024-06-01T08:30Z"),
            AlbumFixture.photo("old", taken: "1999-12-31T23:59:59"),
            AlbumFixture.photo("twin", taken: "2024-06-01T08:00:00Z")  // the same instant as "offset"
        ]
        #expect(
            try order(photos, "-taken") == ["exif", "zulu", "offset", "twin", "midnight", "old", "undated", "garbage"])
        #expect(
            try order(photos, "taken") == ["old", "midnight", "offset", "twin", "zulu", "exif", "undated", "garbage"])
        // The site default is the same as "-taken".
        #expect(PhotoSort.newestFirst == PhotoSort("-taken"))
        #expect(SiteConfig.Defaults.sort == .newestFirst)
    }

    @Test func namesSortNaturallyAndSourceKeepsTheList() throws {
        var photos = [
            AlbumFixture.photo("a", title: "IMG 10"), AlbumFixture.photo("b", title: "img 2"),
            AlbumFixture.photo("c", title: "IMG 1"), AlbumFixture.photo("d", title: "Beach"),
            AlbumFixture.photo("e", title: "IMG 02"), AlbumFixture.photo("f", title: "IMG 2 beach")
        ]
        var untitled = AlbumFixture.photo("g")
        untitled.title = nil
        untitled.fallbackTitle = "IMG 3"
        photos.append(untitled)
        #expect(try order(photos, "name") == ["d", "c", "b", "e", "f", "g", "a"])
        #expect(try order(photos, "-name") == ["a", "g", "f", "e", "b", "c", "d"])
        #expect(try order(photos, "source") == ["a", "b", "c", "d", "e", "f", "g"])
        #expect(try order(photos, "-source") == ["g", "f", "e", "d", "c", "b", "a"])
        #expect(
            NameChunk.compare(NameChunk.split("x99999999999999999999999"), NameChunk.split("x100000000000000000000000"))
                == -1)
    }

    @Test func ratingThenDateWithUnratedLast() throws {
        let photos = [
            AlbumFixture.photo("unrated", taken: "2024-01-01"),
            AlbumFixture.photo("three-old", taken: "2020-01-01", rating: 3),
            AlbumFixture.photo("five", rating: 5),
            AlbumFixture.photo("three-new", taken: "2023-01-01", rating: 3),
            AlbumFixture.photo("rejected", rating: -1)
        ]
        #expect(try order(photos, "-rating") == ["five", "three-new", "three-old", "rejected", "unrated"])
        #expect(try order(photos, "rating") == ["rejected", "three-old", "three-new", "five", "unrated"])
    }

    /// The home grid, prev/next and the search index follow the site's `sort`; albums and tags too.
    @Test func siteSortOrdersTheHomeGridAndNavigation() throws {
        let photos = [
            AlbumFixture.photo("p1"), AlbumFixture.photo("p2", taken: "2020-01-01"),
            AlbumFixture.photo("p3", taken: "2022-01-01"), AlbumFixture.photo("p4", taken: "2021:01:01 00:00:00")
        ]
        let pages = try AlbumFixture().render(AlbumFixture().plan(photos))
        #expect(AlbumFixture.tileIDs(try #require(pages["index.html"])) == ["p3", "p4", "p2"])
        #expect(AlbumFixture.tileIDs(try #require(pages["page/2/index.html"])) == ["p1"])
        #expect(AlbumFixture.tileIDs(try #require(pages["tags/all/index.html"])) == ["p3", "p4", "p2"])
        let p4 = try #require(pages["photos/p4/index.html"])
        #expect(p4.contains(#"<link rel="prev" href="../../photos/p3/index.html">"#))
        #expect(p4.contains(#"<link rel="next" href="../../photos/p2/index.html">"#))
        #expect(p4.contains("Photo 2 of 4"))

        let bySource = try AlbumFixture(["sort": "source"])
        let sourcePages = try bySource.render(bySource.plan(photos))
        #expect(AlbumFixture.tileIDs(try #require(sourcePages["index.html"])) == ["p1", "p2", "p3"])
    }

    @Test func sortConfigKeyIsValidated() throws {
        let file = URL(fileURLWithPath: "/sites/demo/site-config.json")
        func load(_ sort: String) throws -> SiteConfig {
            try SiteConfig.parse(
                Data(#"{"sort": "\#(sort)", "source": {"type": "folder", "path": "p"}}"#.utf8), file: file,
                environment: [:])
        }
        #expect(try load("-name").sort == PhotoSort(key: .name, descending: true))
        #expect(try load(" rating").sort == PhotoSort(key: .rating, descending: false))
        #expect(
            try SiteConfig.parse(
                Data(#"{"source": {"type": "folder", "path": "p"}}"#.utf8), file: file,
                environment: [:]
            ).sort == .newestFirst)
        let error = try #require(throws: ConfigError.self) { try load("sideways") }
        #expect(error.message.hasPrefix(#"sort: "sideways" is not a sort order"#), "\(error.message)")
    }
}
