import Foundation
import GalleryConfig
import GalleryModel
import GalleryOutput
import GalleryPipeline
import GalleryStore
import GalleryVault
import Testing

/// A site with a password (`password` in the config), holding an album with a password of its own
/// too: nothing of any photo, album or tag is published in the clear, not even in a file or folder
/// name; the pages decrypt with the site's key and every link in them reaches a published file;
/// rebuilds are byte-identical, `rekey --site` re-encrypts (a new password too: ProtectedPasswordChangeTests).
@Suite("A password for the whole site")
struct ProtectedSiteTests {
    static let password = "a long password for the whole family"

    static func site(_ setting: [String: Any] = ["password": ProtectedSiteTests.password]) throws -> FixtureSite {
        let site = try ProtectedAlbumTests.site()
        try site.updateConfig(setting.merging(["download": "album"]) { _, new in new })
        // A photo of 282 KB, published as its original: five chunks, for the streaming and range checks.
        try FileManager.default.copyItem(
            at: Fixtures.repository.appendingPathComponent("Samples/photos/ColorfulCups.jpg"),
            to: site.folder.appendingPathComponent("photos/cups.jpg"))
        let file = site.folder.appendingPathComponent("manifest.json")
        var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        manifest["photos"] =
            (manifest["photos"] as! [[String: Any]]) + [
                ["id": "cups", "title": "Colourful cups", "image": "photos/cups.jpg"]
            ]
        try JSONSerialization.data(withJSONObject: manifest).write(to: file)
        return site
    }

    /// The site's content key, from the state.
    static func key(_ site: FixtureSite) throws -> ContentKey {
        let store = try AlbumKeyStore.load(stateDirectory: site.folder.appendingPathComponent(".galleryssg"))
        let entry = try #require(store.entries[ProtectedSite.storeName])
        return try ContentKey(raw: Array(try #require(Data(base64Encoded: entry.key))))
    }

    @Test func nothingIsPublishedInTheClear() async throws {
        let site = try Self.site()
        let report = try await site.build()
        #expect(report.failures.isEmpty, "\(report.failures)")
        let files = try ProtectedAlbumTests.published(site)
        // Every photo's title, id, tags, original name and album, the public album's as well as the protected one's.
        let secrets =
            ProtectedAlbumTests.secrets + [
                "Public shore", "Loose photo", "shore", "loose", "Trips", "photo-1", "photo-5", "Colourful"
            ]
        var leaks: [String] = []
        for (path, bytes) in files where !path.hasPrefix("static/") {
            for secret in secrets
            where bytes.range(of: Data(secret.utf8)) != nil || path.lowercased().contains(PhotoID.slug(secret)) {
                leaks.append("\(path): \(secret)")
            }
            for name in ["photos", "albums", "tags", "search", "feed", "sitemap", "sea"]
            where path.split(separator: "/").contains(where: {
                $0.lowercased().hasPrefix(name)
            }) {
                leaks.append("\(path): \(name)")
            }
        }
        #expect(leaks.isEmpty, "\(leaks)")
        #expect(try site.read("robots.txt") == "User-agent: *\nDisallow: /\n")
        #expect(
            files[SiteLayout.serviceWorker] != nil && files["index.html"] != nil && files[SiteLayout.sealedPage] != nil)
        #expect(
            try site.read("index.html").contains("data-except=\"[&quot;static\\/&quot;"),
            "the shell names what the key does not open")
        let headers = HeadersFile(try site.read("_headers"))
        let sealed = files.keys.filter { !SitePathMapTests.isPublic($0) }
        #expect(
            !sealed.isEmpty && sealed.allSatisfy { headers.value("Cache-Control", for: $0) == "private" },
            "\(sealed.filter { headers.value("Cache-Control", for: $0) != "private" })")

        // Decrypted, the pages are the site: the home page lists the public photos and not the
        // protected album's, and every link of every page reaches a published file.
        let key = try Self.key(site)
        let home = String(
            decoding: try key.decrypt(try #require(files[SiteLayout.sealedPage]), path: SiteLayout.sealedPage),
            as: UTF8.self)
        #expect(home.contains("Public shore") && home.contains("Loose photo") && !home.contains("Nana birthday secret"))
        let mirror = try Self.decryptedMirror(site, key: key)
        let broken = try mirror.brokenLinks()
        #expect(broken.isEmpty, "\(broken)")
        let image = try #require(
            try NSRegularExpression(pattern: #"src="((?:[a-z2-7]{26}/){2}[a-z2-7]{26}\.jpg)""#)
                .firstMatch(in: home, range: NSRange(home.startIndex..., in: home)).map {
                    String(home[Range($0.range(at: 1), in: home)!])
                })
        #expect(try key.decrypt(try #require(files[image]), path: image).prefix(2) == [0xFF, 0xD8])
    }

    /// A copy of the site with each page the site's key opens in place of its shell.
    static func decryptedMirror(_ site: FixtureSite, key: ContentKey) throws -> FixtureSite {
        let mirror = FixtureSite(folder: try Fixtures.temporaryFolder())
        try FileManager.default.copyItem(at: site.output, to: mirror.output)
        for path in mirror.outputFiles() where path.hasSuffix(SiteLayout.sealedPage) {
            guard
                let page = try? key.decrypt(
                    try Data(contentsOf: mirror.output.appendingPathComponent(path)), path: path)
            else { continue }
            let shell = String(path.dropLast(SiteLayout.sealedPage.count)) + SiteLayout.folderIndex
            try Data(page).write(to: mirror.output.appendingPathComponent(shell))
        }
        return mirror
    }

    @Test func rebuildsKeepCiphertextAndRekeyingTheSiteEncryptsAgain() async throws {
        let site = try Self.site()
        _ = try await site.build()
        let first = try ProtectedAlbumTests.published(site)
        let inodes = Self.inodes(site)
        _ = try await site.build()
        #expect(try ProtectedAlbumTests.published(site) == first)
        // Nothing was encrypted again: the images and the home page are the very files of the last
        // build (linked from the cache), the protected album's images too.
        let again = Self.inodes(site)
        let kept = inodes.keys.filter { $0.hasSuffix(".jpg") || $0 == SiteLayout.sealedPage }
        #expect(
            kept.count > 20 && kept.allSatisfy { again[$0] == inodes[$0] }, "\(kept.filter { again[$0] != inodes[$0] })"
        )

        let loaded = try SiteConfig.load(from: site.configURL, environment: [:])
        #expect(try Maintenance.protectedAlbums(loaded) == ["Family"])
        #expect(try Maintenance.rekeySite(loaded))
        #expect(try !Maintenance.rekeySite(loaded))
        _ = try await site.build()
        let rekeyed = try ProtectedAlbumTests.published(site)
        #expect(rekeyed[SiteLayout.sealedPage] != first[SiteLayout.sealedPage])
        let moved = first.keys.filter { $0.hasSuffix(".jpg") && !$0.hasPrefix("static/") }
        #expect(!moved.isEmpty && moved.filter { rekeyed[$0] != nil }.count < moved.count / 2)
    }

    /// Each published file's inode, by path.
    static func inodes(_ site: FixtureSite) -> [String: UInt64] {
        Dictionary(
            uniqueKeysWithValues: site.outputFiles().compactMap { path in
                var info = stat()
                return stat(site.output.appendingPathComponent(path).path, &info) == 0
                    ? (path, UInt64(info.st_ino)) : nil
            })
    }

    @Test func aMissingOrDoubleSettingIsRefused() async throws {
        let site = try Self.site()
        _ = try await site.build()
        let before = try ProtectedAlbumTests.published(site)
        var config = try JSONSerialization.jsonObject(with: Data(contentsOf: site.configURL)) as! [String: Any]
        config["password"] = nil
        config["passwordEnv"] = "GALLERYSSG_TEST_UNSET_SITE_PASSWORD"
        try JSONSerialization.data(withJSONObject: config).write(to: site.configURL)
        await #expect { try await site.build() } throws: { error in
            "\(error)".contains(
                ProtectedAlbumError.siteUnsetEnvironment(name: "GALLERYSSG_TEST_UNSET_SITE_PASSWORD").description)
        }
        #expect(try ProtectedAlbumTests.published(site) == before)

        config["password"] = "both set"
        try JSONSerialization.data(withJSONObject: config).write(to: site.configURL)
        #expect { try SiteConfig.load(from: site.configURL, environment: [:]) } throws: { error in
            (error as? ConfigError)?.key == "password" && "\(error)".contains("passwordEnv")
        }
        config["password"] = ""
        config["passwordEnv"] = nil
        try JSONSerialization.data(withJSONObject: config).write(to: site.configURL)
        #expect(throws: ConfigError.self) { try SiteConfig.load(from: site.configURL, environment: [:]) }
    }
}
