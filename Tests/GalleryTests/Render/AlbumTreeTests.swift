import Foundation
import GalleryModel
import GalleryRender
import Testing

/// Albums as a tree: a page per album path prefix, breadcrumbs, sub-album cards and counts, the
/// settings of `AlbumInfo`, and hostile album paths.
@Suite("Album tree")
struct AlbumTreeTests {
    /// Iceland has a photo of its own and two sub-albums; 2024 has only Iceland; 2023 is a sibling.
    static let trip = [
        AlbumFixture.photo("d1a", album: "2024/Iceland/Day 1", taken: "2024-06-01T09:00:00Z"),
        AlbumFixture.photo("d1b", album: "2024/Iceland/Day 1", taken: "2024-06-01T10:00:00Z"),
        AlbumFixture.photo("ice", album: "2024/Iceland", taken: "2024-06-03"),
        AlbumFixture.photo("d2", album: "2024/Iceland/Day 2", taken: "2024-06-02"),
        AlbumFixture.photo("old", album: "2023", taken: "2023-05-01"),
        AlbumFixture.photo("loose")
    ]

    @Test func everyPrefixIsAnAlbumWithBreadcrumbsCardsAndCounts() throws {
        let fixture = try AlbumFixture()
        let pages = try fixture.render(fixture.plan(Self.trip))
        for path in [
            "albums/index.html", "albums/2024/index.html", "albums/2024/iceland/index.html",
            "albums/2024/iceland/day-1/index.html", "albums/2024/iceland/day-2/index.html", "albums/2023/index.html"
        ] {
            #expect(pages[path] != nil, "no \(path)")
        }
        #expect(pages.keys.filter { $0.hasPrefix("albums/") }.count == 6)

        // The index lists the top level only, newest album first; counts include sub-albums.
        let index = try #require(pages["albums/index.html"])
        #expect(index.matches(of: /<li class="tile album"/).count == 2)
        #expect(index.contains(#"<a href="../albums/2024/index.html" title="2024">"#))
        #expect(index.contains(#"<span class="name">2024</span> <span class="count">4 photos · 1 album</span>"#))
        #expect(index.contains(#"<span class="name">2023</span> <span class="count">1 photo</span>"#))
        #expect(
            try #require(index.range(of: ">2024<")).lowerBound < (try #require(index.range(of: ">2023<"))).lowerBound)
        #expect(!index.contains("Iceland"))

        let iceland = try #require(pages["albums/2024/iceland/index.html"])
        #expect(
            iceland.contains(
                #"<nav class="breadcrumb" aria-label="Breadcrumb"><ol><li><a href="../../../albums/index.html">Albums</a></li>"#
                    + #"<li><a href="../../../albums/2024/index.html">2024</a></li><li aria-current="page">Iceland</li></ol></nav>"#
            ))
        #expect(iceland.contains(#"<h1 class="gallery-heading">Iceland</h1>"#))
        #expect(iceland.contains(#"<p class="lead">4 photos · 2 albums</p>"#))
        // Sub-album cards first (each covered by its first photo), then the album's own photo.
        #expect(
            iceland.contains(
                #"<a href="../../../albums/2024/iceland/day-1/index.html" title="Day 1"><img src="../../../photos/d1b/"#
            ))
        #expect(iceland.contains(#"<span class="name">Day 1</span> <span class="count">2 photos</span>"#))
        #expect(iceland.contains(#"<span class="name">Day 2</span> <span class="count">1 photo</span>"#))
        #expect(AlbumFixture.tileIDs(iceland) == ["ice"])
        #expect(
            try #require(iceland.range(of: "grid albums")).lowerBound
                < (try #require(iceland.range(of: #"<div class="grid">"#))).lowerBound)

        // An album with no photos of its own shows its sub-albums and no "no photos" line; its
        // card is covered by a sub-album's photo.
        let year = try #require(pages["albums/2024/index.html"])
        #expect(AlbumFixture.tileIDs(year) == [])
        #expect(!year.contains("no photos yet"))
        #expect(
            year.contains(
                #"<a href="../../albums/2024/iceland/index.html" title="Iceland"><img src="../../photos/ice/"#))

        let day1 = try #require(pages["albums/2024/iceland/day-1/index.html"])
        #expect(
            day1.contains(
                #"<li><a href="../../../../albums/2024/iceland/index.html">Iceland</a></li><li aria-current="page">Day 1</li>"#
            ))
        #expect(AlbumFixture.tileIDs(day1) == ["d1b", "d1a"])

        // Photo pages: the trail down to the photo's album, and the album row links it.
        let photo = try #require(pages["photos/d1a/index.html"])
        #expect(
            photo.contains(
                #"<li><a href="../../albums/2024/iceland/day-1/index.html">Day 1</a></li><li aria-current="page">Photo d1a</li>"#
            ))
        #expect(photo.contains(#"<dd><a href="../../albums/2024/iceland/day-1/index.html">Day 1</a></dd>"#))
        #expect(try #require(pages["photos/loose/index.html"]).contains("breadcrumb") == false)
    }

    @Test func albumPagesArePagedBelowTheirFolder() throws {
        let photos =
            (1...7).map { AlbumFixture.photo("p\($0)", album: "Big/Trip", taken: "2024-01-0\($0)") }
            + [AlbumFixture.photo("sub", album: "Big/Trip/page")]
        let fixture = try AlbumFixture()
        let pages = try fixture.render(fixture.plan(photos))
        #expect(pages["albums/big/trip/page/2/index.html"] != nil)
        #expect(pages["albums/big/trip/page/3/index.html"] != nil)
        // A sub-album called "page" cannot take the folder its parent's pages live in.
        #expect(pages["albums/big/trip/page-2/index.html"] != nil)
        let second = try #require(pages["albums/big/trip/page/2/index.html"])
        #expect(AlbumFixture.tileIDs(second) == ["p4", "p3", "p2"])
        #expect(second.contains(#"<link rel="prev" href="../../../../../albums/big/trip/index.html">"#))
        #expect(second.contains(#"<link rel="stylesheet" href="../../../../../static/style."#))
        #expect(!second.contains("grid albums"))  // sub-album cards on the first page only
        #expect(
            second.contains(
                #"<li><a href="../../../../../albums/big/index.html">Big</a></li><li aria-current="page">Trip</li>"#))
    }

    @Test func albumSettingsApply() throws {
        let infos: [String: AlbumInfo] = [
            "2024/Iceland": AlbumInfo(
                title: "Iceland <2024>",
                description: "**Ring road** <script>alert(1)</script> [x](javascript:alert(1))",
                cover: "d2", sort: PhotoSort("name")),
            "2024/Iceland/Day 1": AlbumInfo(sort: PhotoSort("taken")),
            "2023": AlbumInfo(showInHome: false),
            "/2024//": AlbumInfo(title: "The year")  // the same album as "2024", written loosely
        ]
        let photos =
            Self.trip + [
                AlbumFixture.photo("b-ice", album: "2024/Iceland", taken: "2020-01-01"),
                AlbumFixture.photo("old2", album: "2023/Spring", taken: "2023-04-01")
            ]
        let fixture = try AlbumFixture(["pageSize": 20])
        let pages = try fixture.render(fixture.plan(photos, albums: infos))
        let iceland = try #require(pages["albums/2024/iceland/index.html"])
        #expect(iceland.contains(#"<h1 class="gallery-heading">Iceland &lt;2024&gt;</h1>"#))
        #expect(iceland.contains("<title>Iceland &lt;2024&gt; · Fixture &lt;Gallery&gt;</title>"))
        #expect(iceland.contains("<strong>Ring road</strong>"))
        #expect(!iceland.contains("<script>alert") && !iceland.contains(#"href="javascript"#))
        #expect(iceland.contains(#"<meta name="description" content="Ring road"#))
        #expect(AlbumFixture.tileIDs(iceland) == ["b-ice", "ice"])  // by name: "Photo b-ice" < "Photo ice"
        #expect(AlbumFixture.tileIDs(try #require(pages["albums/2024/iceland/day-1/index.html"])) == ["d1a", "d1b"])
        let year = try #require(pages["albums/2024/index.html"])
        #expect(year.contains(#"<img src="../../photos/d2/"#))  // Iceland's card shows its cover, d2
        #expect(year.contains(#"<span class="name">Iceland &lt;2024&gt;</span>"#))
        #expect(year.contains(#"<h1 class="gallery-heading">The year</h1>"#))
        #expect(
            try #require(pages["photos/ice/index.html"]).contains(
                #"<a href="../../albums/2024/index.html">The year</a>"#))

        // 2023 and its sub-album are left out of the home grid, but keep their pages and tags.
        let home = AlbumFixture.tileIDs(try #require(pages["index.html"]))
        #expect(home == ["ice", "d2", "d1b", "d1a", "b-ice", "loose"])
        #expect(AlbumFixture.tileIDs(try #require(pages["albums/2023/index.html"])) == ["old"])
        #expect(AlbumFixture.tileIDs(try #require(pages["tags/all/index.html"])).contains("old2"))
        // Their photos step through their album instead, and go back to it.
        let old = try #require(pages["photos/old/index.html"])
        #expect(old.contains(#"<a class="up" href="../../albums/2023/index.html">2023 (page 1)</a>"#))
        #expect(old.contains("Photo 1 of 1") && !old.contains(#"rel="next""#))
        let loose = try #require(pages["photos/loose/index.html"])
        #expect(
            loose.contains("Photo 6 of 6")
                && loose.contains(#"<a class="up" href="../../index.html">All photos (page 1)</a>"#))
    }

    @Test func hostileAlbumPathsStayInsideAlbums() throws {
        let deep = (0..<50).map { "level \($0)" }.joined(separator: "/")
        let long = String(repeating: "Ω long name ", count: 900)  // about 10 KB
        let paths = [
            "../x", "a//b", "/", "..", "../../..", deep, long, "海/🌊", "x/./y", " . /a", "page/page", "\u{0}\u{7}/ctrl"
        ]
        let photos = paths.enumerated().map { AlbumFixture.photo("h\($0.offset)", album: $0.element) }
        let fixture = try AlbumFixture()
        let plan = try fixture.plan(photos)
        let pages = try fixture.render(plan)
        let albumPaths = pages.keys.filter { $0.hasPrefix("albums/") && $0 != "albums/index.html" }
        #expect(!albumPaths.isEmpty)
        for path in pages.keys {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            #expect(!parts.contains("..") && !parts.contains(".") && !parts.contains(""), "\(path)")
            #expect(parts.allSatisfy { $0.utf8.count <= 100 } && path.utf8.count < 1024, "\(path.prefix(200))")
            #expect(parts.allSatisfy { PhotoID.isValid(String($0)) }, "\(path)")
        }
        let tree = plan.sections.albums
        #expect(Set(tree.albums.map(\.path)).isSuperset(of: ["x", "a/b", "a", "海/🌊", "x/y", "a", "page/page", "ctrl"]))
        #expect(tree.albums.allSatisfy { $0.path.split(separator: "/").count <= AlbumPath.maxDepth })
        // "/", ".." and "../../.." name no album: those photos have none.
        for id in ["h2", "h3", "h4"] {
            #expect(tree.albumOfItem[plan.items.facts.firstIndex { $0.id == id } ?? -1] == nil)
        }
        let folded = try #require(
            tree.albums.first { $0.path.hasPrefix("level 0/") && $0.path.split(separator: "/").count == 8 })
        #expect(folded.title.hasPrefix("level 7 · level 8 · "))
        #expect(tree.albums.allSatisfy { $0.title.count <= AlbumPath.maxNameLength + 1 })
        // Every link of every page resolves to another page of the plan.
        for (path, html) in pages where path.hasSuffix(".html") && path != "404.html" {  // 404's links are absolute
            let folder = URL(fileURLWithPath: "/site/" + path).deletingLastPathComponent()
            for match in html.matches(of: /href="([^"#]+\.html)"/) {
                let target = folder.appendingPathComponent(String(match.1)).standardizedFileURL.path
                #expect(target.hasPrefix("/site/") && pages[String(target.dropFirst(6))] != nil, "\(path): \(match.1)")
            }
        }
    }

    /// Every field of the album models answers through `child(named:)` (see PageModelTests).
    @Test func templatesReachEveryAlbumModelField() throws {
        let fixture = try AlbumFixture()
        let plan = try fixture.plan(Self.trip, albums: ["2024": AlbumInfo(description: "A *year*")])
        var checked = Set<String>()
        for page in plan.pages {
            let model = try fixture.renderer.model(of: page, in: plan)
            try PageModelTests.expectFields(of: model.context, at: model.path, checked: &checked)
        }
        #expect(checked.isSuperset(of: ["AlbumCards", "Breadcrumbs", "Crumb", "CollectionTile", "AlbumsContext"]))
    }
}
