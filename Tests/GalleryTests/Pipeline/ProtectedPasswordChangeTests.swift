import Foundation
import GalleryConfig
import GalleryModel
import GalleryPipeline
import GalleryStore
import GalleryVault
import Testing

/// A changed password gives the album (or the whole site) a new content key, and every file of it is
/// encrypted again under new names: the old password, and a key a reader kept, open nothing of the
/// new build. Checked on the published files as a reader's browser opens them: the key file from the
/// shell page, unwrapped with a password, and each file decrypted in the vault's format. Under a site
/// password, the build prints each hidden album's working (opaque) link.
@Suite("A changed password, and links under a site password")
struct ProtectedPasswordChangeTests {
    static let newPassword = "a different long passphrase"

    /// The key file a shell page publishes: its `data-key-file`, HTML-escaped JSON.
    static func keyFile(inShell html: String) throws -> KeyFile {
        let pattern = try NSRegularExpression(pattern: #"data-key-file="([^"]*)""#)
        let match = try #require(pattern.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)))
        let json = String(html[Range(match.range(at: 1), in: html)!])
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
        return try KeyFile(json: Data(json.utf8))
    }

    /// The protected album's shell page and its token (`albums/TOKEN/index.html`).
    static func albumShell(_ files: [String: Data]) throws -> (html: String, token: String) {
        let path = try #require(
            files.keys.first {
                $0.hasPrefix("albums/") && $0.split(separator: "/").count == 3 && $0.hasSuffix("/index.html")
                    && String(decoding: files[$0]!, as: UTF8.self).contains("id=\"protected\"")
            })
        return (String(decoding: files[path]!, as: UTF8.self), String(path.split(separator: "/")[1]))
    }

    /// The album's encrypted files: everything in its folders but the shell pages.
    static func encrypted(_ files: [String: Data], token: String) -> [String] {
        files.keys.filter {
            ($0.hasPrefix("albums/\(token)/") || $0.hasPrefix("photos/\(token)-")) && !$0.hasSuffix("/index.html")
        }.sorted()
    }

    static func build(_ site: FixtureSite) async throws -> [BuildEvent] {
        let events = EventLog()
        _ = try await Build(
            config: try SiteConfig.load(from: site.configURL, environment: [:]), options: BuildOptions(jobs: 2),
            progress: { events.append($0) }
        ).run()
        return events.all
    }

    @Test func aNewAlbumPasswordEncryptsEverythingAgain() async throws {
        let site = try ProtectedAlbumTests.site()
        let made = try await Self.build(site)
        #expect(made.allSatisfy { !"\($0)".contains("the password changed") })
        let first = try ProtectedAlbumTests.published(site)
        let (shell, token) = try Self.albumShell(first)
        let oldKey = try Self.keyFile(inShell: shell).unwrap(password: ProtectedAlbumTests.password)
        let oldFiles = Self.encrypted(first, token: token)
        #expect(oldFiles.count > 5 && oldFiles.contains { $0.hasSuffix(".jpg") }, "\(oldFiles)")
        for path in oldFiles { #expect(try !oldKey.decrypt(first[path]!, path: path).isEmpty) }

        try ProtectedAlbumTests.write(site, password: Self.newPassword)
        let events = try await Self.build(site)
        #expect(events.contains(.step(ProtectedAlbums.rekeyedNotice(album: "Family"))), "\(events)")
        let second = try ProtectedAlbumTests.published(site)
        let (newShell, sameToken) = try Self.albumShell(second)
        #expect(sameToken == token, "the album keeps its link")
        let keyFile = try Self.keyFile(inShell: newShell)
        #expect(throws: VaultError(.wrongPassword)) { try keyFile.unwrap(password: ProtectedAlbumTests.password) }
        let newKey = try keyFile.unwrap(password: Self.newPassword)
        #expect(newKey != oldKey)
        let newFiles = Self.encrypted(second, token: token)
        #expect(newFiles.count == oldFiles.count)
        // New names for every file but the pages' `page.bin`, and nothing the old key opens.
        let renamed = oldFiles.filter { !$0.hasSuffix(SiteLayout.sealedPage) }
        #expect(!renamed.isEmpty && renamed.allSatisfy { second[$0] == nil })
        for path in newFiles {
            #expect(throws: VaultError.self, "\(path)") { try oldKey.decrypt(second[path]!, path: path) }
            #expect(try !newKey.decrypt(second[path]!, path: path).isEmpty)
        }
        let page = String(
            decoding: try newKey.decrypt(
                second["albums/\(token)/\(SiteLayout.sealedPage)"]!, path: "albums/\(token)/page.bin"),
            as: UTF8.self)
        #expect(page.contains("Family Album Secret Title"))

        // The new key is kept: the next build with the same password is the same site.
        let again = try await Self.build(site)
        #expect(!again.contains(.step(ProtectedAlbums.rekeyedNotice(album: "Family"))))
        #expect(try ProtectedAlbumTests.published(site) == second)
    }

    @Test func aNewSitePasswordEncryptsEverythingAgain() async throws {
        let site = try ProtectedSiteTests.site()
        _ = try await site.build()
        let first = try ProtectedAlbumTests.published(site)
        let oldKey = try Self.keyFile(inShell: try site.read("index.html")).unwrap(
            password: ProtectedSiteTests.password)
        let newPassword = "another long password for the family"
        try site.updateConfig(["password": newPassword])
        let events = try await Self.build(site)
        #expect(events.contains(.step(ProtectedAlbums.rekeyedNotice(album: nil))), "\(events)")
        let second = try ProtectedAlbumTests.published(site)
        let keyFile = try Self.keyFile(inShell: try site.read("index.html"))
        #expect(throws: VaultError(.wrongPassword)) { try keyFile.unwrap(password: ProtectedSiteTests.password) }
        let newKey = try keyFile.unwrap(password: newPassword)
        let home = try #require(second[SiteLayout.sealedPage])
        #expect(throws: VaultError.self) { try oldKey.decrypt(home, path: SiteLayout.sealedPage) }
        #expect(
            String(decoding: try newKey.decrypt(home, path: SiteLayout.sealedPage), as: UTF8.self).contains(
                "Public shore"))
        // The site's files move to new opaque paths (the protected album's keep its own key).
        let moved = first.keys.filter { $0.hasSuffix(".jpg") && !$0.hasPrefix("static/") }
        #expect(!moved.isEmpty && moved.allSatisfy { second[$0] == nil })
    }

    /// Under a site password, the links the build prints are the albums' opaque ones, which open.
    @Test func theBuildPrintsWorkingLinksUnderASitePassword() async throws {
        let site = try ProtectedSiteTests.site()
        let file = site.folder.appendingPathComponent("manifest.json")
        var manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
        var albums = manifest["albums"] as! [String: Any]
        albums["Trips"] = ["unlisted": true]
        manifest["albums"] = albums
        try JSONSerialization.data(withJSONObject: manifest).write(to: file)
        let events = try await Self.build(site)
        let base = "https://example.com/gallery/"
        func link(_ prefix: String) throws -> String {
            let line = try #require(
                events.compactMap { event -> String? in
                    guard case .step(let text) = event, text.hasPrefix(prefix) else { return nil }
                    return text
                }.first, "\(events)")
            let url = String(line.dropFirst(prefix.count))
            #expect(url.hasPrefix(base) && url.hasSuffix("/"), "\(url)")
            return String(url.dropFirst(base.count))
        }
        let state = site.folder.appendingPathComponent(".galleryssg")
        let store = try AlbumKeyStore.load(stateDirectory: state)
        let albumKey = try ContentKey(raw: Array(try #require(Data(base64Encoded: store.entries["Family"]!.key))))
        let siteKey = try ProtectedSiteTests.key(site)
        for (prefix, key, title) in [
            ("protected album Family: ", albumKey, "Family Album Secret Title"),
            ("unlisted album Trips: ", siteKey, "Public shore")
        ] {
            let folder = try link(prefix)
            #expect(!folder.hasPrefix("albums/") && !folder.lowercased().contains("trips"), "\(folder)")
            #expect(try site.read(folder + "index.html").contains("id=\"protected\""))
            let sealed = folder + SiteLayout.sealedPage
            let bytes = try Data(contentsOf: site.output.appendingPathComponent(sealed))
            #expect(String(decoding: try key.decrypt(bytes, path: sealed), as: UTF8.self).contains(title))
        }
    }
}
