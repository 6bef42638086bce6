import Foundation
import GalleryPipeline
import Testing

/// Whole builds with `download`: the album's zip beside its first page holds exactly the files the
/// photo pages' Download links give (GPS-free originals), a no-op build keeps it as it is, a changed
/// photo remakes it, and sub-albums inherit or override the setting.
@Suite("Download builds")
struct DownloadBuildTests {
    /// Trip (download: album): two photos from files of the same name, one with GPS; Trip/Day 2
    /// inherits it; Trip/Private says none.
    static func site() throws -> FixtureSite {
        let site = try FixtureSite.make(entries: [])
        let photos = site.folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(
            at: photos.appendingPathComponent("b"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: photos.appendingPathComponent("photo-2.jpg"), to: photos.appendingPathComponent("b/photo-1.jpg"))
        let manifest: [String: Any] = [
            "albums": ["Trip": ["download": "album"], "Trip/Private": ["download": "none"]],
            "photos": [
                ["id": "one", "title": "One", "image": "photos/photo-1.jpg", "album": "Trip"],
                ["id": "same-name", "title": "Same name", "image": "photos/b/photo-1.jpg", "album": "Trip"],
                ["id": "gps", "title": "GPS", "image": "photos/gps.jpg", "album": "Trip"],
                ["id": "day", "title": "Day", "image": "photos/photo-3.jpg", "album": "Trip/Day 2"],
                ["id": "secret", "title": "Secret", "image": "photos/photo-4.jpg", "album": "Trip/Private"],
                ["id": "loose", "title": "Loose", "image": "photos/photo-5.jpg"]
            ]
        ]
        try JSONSerialization.data(withJSONObject: manifest).write(
            to: site.folder.appendingPathComponent("manifest.json"))
        return site
    }

    static func stamp(_ url: URL) throws -> (inode: Int, modified: Date) {
        let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        return (
            (attributes[.systemFileNumber] as? NSNumber)?.intValue ?? -1,
            attributes[.modificationDate] as? Date ?? .distantPast
        )
    }

    @Test func zipHoldsThePublishedFilesAndSurvivesANoOpBuild() async throws {
        let site = try Self.site()
        _ = try await site.build()
        let zip = site.output.appendingPathComponent("albums/trip/trip.zip")
        let tested = try ZipCheck.run("unzip", ["-t", zip.path])
        #expect(tested.status == 0, "\(tested.output)")
        let listing = try ZipCheck.python(zip.path)
        #expect(listing.bad == nil)
        #expect(listing.entries.allSatisfy { $0.compressType == 0 })
        // The album's own photos only (not Day 2's), each under its source's name, made unique.
        #expect(Set(listing.entries.map(\.name)) == ["photo-1.jpg", "photo-1-2.jpg", "gps.jpg"])
        for (id, name) in [("one", "photo-1.jpg"), ("gps", "gps.jpg")] {
            let published = site.output.appendingPathComponent("photos/\(id)/original.jpg").path
            let entry = try #require(listing.entries.first { $0.name == name })
            #expect(entry.sha256 == (try AlbumZipWriterTests.sha256(published)), "\(name)")
        }
        // The GPS photo's entry is the published original, without location, not the source file.
        let gpsEntry = try #require(listing.entries.first { $0.name == "gps.jpg" })
        #expect(
            gpsEntry.sha256
                != (try AlbumZipWriterTests.sha256(site.folder.appendingPathComponent("photos/gps.jpg").path)))

        let album = try site.read("albums/trip/index.html")
        #expect(
            album.contains(#"<a href="../../albums/trip/trip.zip" download="trip.zip">Download all (3 photos, "#),
            "\(album)")
        let photo = try site.read("photos/one/index.html")
        #expect(photo.contains(#"download="photo-1.jpg">Download</a>"#))
        // Inherited by Day 2 (links, and a zip of its own); refused by Private.
        #expect(try site.read("photos/day/index.html").contains(#"download="photo-3.jpg">Download</a>"#))
        #expect(
            FileManager.default.fileExists(
                atPath: site.output.appendingPathComponent("albums/trip/day-2/day-2.zip").path))
        #expect(!(try site.read("photos/secret/index.html")).contains("download="))
        #expect(
            !FileManager.default.fileExists(
                atPath: site.output.appendingPathComponent("albums/trip/private/private.zip").path))
        #expect(!(try site.read("photos/loose/index.html")).contains("download="))  // the site's default: none

        let before = try Self.stamp(zip)
        let bytes = try Data(contentsOf: zip)
        _ = try await site.build()
        #expect(try Self.stamp(zip) == before)
        #expect(try Data(contentsOf: zip) == bytes)
        #expect(try site.treeHash() == (try await site.cleanBuildHash()))

        // One photo changes: the zip is made again, with the new file.
        let changed = site.folder.appendingPathComponent("photos/b/photo-1.jpg")
        try FileManager.default.removeItem(at: changed)
        try FileManager.default.copyItem(at: site.folder.appendingPathComponent("photos/photo-6.jpg"), to: changed)
        _ = try await site.build()
        #expect(try Self.stamp(zip).inode != before.inode)
        let after = try ZipCheck.python(zip.path)
        let entry = try #require(after.entries.first { $0.name == "photo-1-2.jpg" })
        #expect(
            entry.sha256
                == (try AlbumZipWriterTests.sha256(
                    site.output.appendingPathComponent("photos/same-name/original.jpg").path)))
        #expect(entry.sha256 != (try #require(listing.entries.first { $0.name == "photo-1-2.jpg" })).sha256)
    }

    /// An unlisted album's zip lives in its token folder, under the token; the reader saves it under the album's title.
    @Test func anUnlistedAlbumsZipIsSavedUnderItsTitle() async throws {
        let site = try Self.site()
        let file = site.folder.appendingPathComponent("manifest.json")
        var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        manifest["albums"] = ["Trip": ["download": "album", "unlisted": true, "title": "Summer Trip"]]
        try JSONSerialization.data(withJSONObject: manifest).write(to: file)
        _ = try await site.build()
        let page = try #require(
            site.outputFiles().first { $0.hasPrefix("albums/trip-") && $0.split(separator: "/").count == 3 })
        let html = try site.read(page)
        let links = html.matches(of: /download="[^"]*"/).map { String($0.0) }
        #expect(html.contains(#"download="summer-trip.zip""#), "\(links)")
        #expect(!html.contains(#"download="trip-"#))
    }

    @Test func siteWideSettingAndNoOriginals() async throws {
        let site = try Self.site()
        try site.updateConfig([
            "download": "photo", "images": ["thumbnail": 64, "preview": 120, "widths": [80], "publishOriginals": false]
        ])
        _ = try await site.build()
        // No original is published: the link gives the largest derivative, named after the source.
        let page = try site.read("photos/loose/index.html")
        let href = try #require(
            page.firstMatch(of: /<a href="\.\.\/\.\.\/(photos\/loose\/[0-9]+x[0-9]+\.jpg)" download="photo-5\.jpg">/))
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent(String(href.1)).path))
        // Trip still says album.
        let listing = try ZipCheck.python(site.output.appendingPathComponent("albums/trip/trip.zip").path)
        #expect(listing.entries.count == 3)
        let folder = site.output.appendingPathComponent("photos/one")
        let sizes = try FileManager.default.contentsOfDirectory(atPath: folder.path).compactMap {
            name -> (String, Int)? in
            guard let match = name.wholeMatch(of: /([0-9]+)x([0-9]+)\.jpg/) else { return nil }
            return (name, Int(match.1)! * Int(match.2)!)
        }
        let largest = try #require(sizes.max { $0.1 < $1.1 }).0
        let entry = try #require(listing.entries.first { $0.name == "photo-1.jpg" })
        #expect(entry.sha256 == (try AlbumZipWriterTests.sha256(folder.appendingPathComponent(largest).path)))
        #expect(
            !FileManager.default.fileExists(atPath: site.output.appendingPathComponent("photos/one/original.jpg").path))
    }

    /// Originals published as-is keep their GPS tags: the link and the zip give the largest derivative.
    @Test func originalsPublishedAsIsAreNotDownloaded() async throws {
        let site = try Self.site()
        try site.updateConfig(["images": ["thumbnail": 64, "preview": 120, "widths": [80], "publishOriginals": "as-is"]]
        )
        _ = try await site.build()
        let original = site.output.appendingPathComponent("photos/gps/original.jpg")
        #expect(FileManager.default.fileExists(atPath: original.path))  // "Full size" still links it
        let page = try site.read("photos/gps/index.html")
        #expect(page.contains(#"download="gps.jpg""#))
        #expect(!page.contains(#"original.jpg" download="#))
        let listing = try ZipCheck.python(site.output.appendingPathComponent("albums/trip/trip.zip").path)
        let entry = try #require(listing.entries.first { $0.name == "gps.jpg" })
        #expect(entry.sha256 != (try AlbumZipWriterTests.sha256(original.path)))
        #expect(
            entry.sha256 != (try AlbumZipWriterTests.sha256(site.folder.appendingPathComponent("photos/gps.jpg").path)))
    }
}
