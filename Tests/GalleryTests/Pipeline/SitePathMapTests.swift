import Foundation
import GalleryPipeline
import GalleryVault
import Testing

/// The opaque paths of a site with a password, and the links that follow them however a page,
/// a script or JSON writes them.
@Suite("Opaque paths of a site with a password")
struct SitePathMapTests {
    static func isPublic(_ path: String) -> Bool { SitePathMap.isPublic(path) }

    static func map() throws -> SitePathMap {
        var map = SitePathMap(
            key: try ContentKey(raw: Array(repeating: 7, count: 32)), albumFolders: ["albums/TOKENA"],
            photoPrefixes: ["photos/TOKENA-"])
        for path in [
            "index.html", "photos/kite/index.html", "photos/kite/400x250.jpg", "search-index.js", "search/3/t0.js",
            "albums/trips/portugal/index.html", "albums/TOKENA/index.html", "photos/TOKENA-x/400x300.jpg"
        ] {
            map.add(path)
        }
        return map
    }

    @Test func depthIsKeptAndNamesAreOpaque() throws {
        let map = try Self.map()
        let kite = try #require(map.files["photos/kite/400x250.jpg"])
        #expect(kite.split(separator: "/").count == 3 && !kite.contains("kite") && kite.hasSuffix(".jpg"))
        #expect(map.files["photos/kite/index.html"] == StagedPath.parent(kite) + "/index.html")
        #expect(map.files["index.html"] == "index.html")
        #expect(try #require(map.files["albums/trips/portugal/index.html"]).split(separator: "/").count == 4)
        // Search shards keep their numbered names; a protected album's names are left to its own sealer.
        #expect(try #require(map.files["search/3/t0.js"]).hasSuffix("/t0.js"))
        let album = try #require(map.files["albums/TOKENA/index.html"])
        #expect(album.hasSuffix("/TOKENA/index.html") && !album.hasPrefix("albums/"))
        #expect(try #require(map.files["photos/TOKENA-x/400x300.jpg"]).hasSuffix("/TOKENA-x/400x300.jpg"))
        #expect(
            SitePathMap.isPublic("static/style.css") && SitePathMap.isPublic("404.html")
                && !SitePathMap.isPublic("feed.xml"))
    }

    @Test func linksAreRewrittenAsTheyWereWritten() throws {
        let map = try Self.map()
        let kite = try #require(map.files["photos/kite/400x250.jpg"])
        let page = try #require(map.files["photos/kite/index.html"])
        let folder = StagedPath.parent(page)
        let index = try #require(map.files["search-index.js"])
        let text =
            #"<a href="../../photos/kite/index.html"><img src="photos/kite/400x250.jpg" srcset="photos/kite/400x250.jpg 400w">"#
            + #" {"url":"photos\/kite\/index.html"} <link rel="canonical" href="https://example.com/gallery/photos/kite/index.html">"#
            + #" <a href="photos/kite/">kite</a> data-index="search-index.js" photos/unknown/index.html"#
        let expected =
            #"<a href="../../\#(page)"><img src="\#(kite)" srcset="\#(kite) 400w">"#
            + #" {"url":"\#(page.replacingOccurrences(of: "/", with: #"\/"#))"} <link rel="canonical" href="https://example.com/gallery/\#(page)">"#
            + #" <a href="\#(folder)/">kite</a> data-index="\#(index)" photos/unknown/index.html"#
        #expect(map.rewrite(text) == expected)
        #expect(map.rewrite("no paths here, only words.") == "no paths here, only words.")
    }
}

/// `StagedWriter.parent` for tests that do not import GalleryOutput.
enum StagedPath {
    static func parent(_ path: String) -> String { path.split(separator: "/").dropLast().joined(separator: "/") }
}
