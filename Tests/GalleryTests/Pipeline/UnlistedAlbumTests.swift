import Foundation
import GalleryMetadata
import GalleryModel
import GalleryPipeline
import GalleryProviders
import GalleryStore
import GalleryVault
import Testing

/// `unlisted: true` albums: built and reachable by their link, which no other file names; their
/// photos, titles, tags and ids are in no listing, feed, sitemap, search index or map.
@Suite("Unlisted albums")
struct UnlistedAlbumTests {
    /// Two public albums (one nested) and an unlisted one with a sub-album.
    static var entries: [[String: Any]] {
        [
            ["id": "shore", "title": "Public shore", "image": "photos/photo-1.jpg", "album": "Trips", "tags": ["sea"]],
            [
                "id": "cliff", "title": "Public cliff", "image": "photos/photo-2.jpg", "album": "Trips/Coast",
                "tags": ["sea"]
            ],
            [
                "id": "nana-cake", "title": "Nana birthday secret", "image": "photos/photo-3.jpg", "album": "Family",
                "tags": ["famtag", "sea"], "description": "Only for the family"
            ],
            [
                "id": "kids-party", "title": "Kids party hidden", "image": "photos/photo-4.jpg", "album": "Family/Kids",
                "tags": ["famtag"]
            ],
            ["id": "home-only", "title": "Loose photo", "image": "photos/photo-5.jpg"]
        ]
    }

    static func site() throws -> FixtureSite {
        let site = try FixtureSite.make(entries: entries, config: ["pageSize": 24])
        let manifest: [String: Any] = [
            "photos": entries,
            "albums": [
                "Family": ["unlisted": true, "title": "Family Secret Album"],
                "Trips": ["title": "Trips"]
            ]
        ]
        try JSONSerialization.data(withJSONObject: manifest).write(
            to: site.folder.appendingPathComponent("manifest.json"))
        return site
    }

    /// Whether a published file belongs to the unlisted album: its pages, or its photos' pages and images.
    static func isOwn(_ path: String, album: String, photoFolders: Set<String>) -> Bool {
        path.hasPrefix(album + "/") || photoFolders.contains { path.hasPrefix($0 + "/") }
    }

    @Test func unlistedAlbumIsReachableOnlyByItsLink() async throws {
        let site = try Self.site()
        let report = try await site.build()
        #expect(report.failures.isEmpty, "\(report.failures)")
        let files = site.outputFiles()
        let albumFolders = Set(
            files.compactMap { path -> String? in
                let parts = path.split(separator: "/")
                return parts.count > 2 && parts[0] == "albums" && parts[1].hasPrefix("family-")
                    ? "albums/\(parts[1])" : nil
            })
        let album = try #require(albumFolders.first, "\(files)")
        #expect(albumFolders.count == 1)
        let token = String(album.dropFirst("albums/family-".count))
        #expect(
            token.count == SiteSecret.tokenLength && token.allSatisfy { $0.isLowercase || ("2"..."7").contains($0) })
        #expect(files.contains(album + "/kids/index.html"))
        // The photos' folders carry tokens, not their ids.
        #expect(!files.contains { $0.contains("nana-cake") || $0.contains("kids-party") })
        let photoFolders = Set(
            files.compactMap { path -> String? in
                let parts = path.split(separator: "/")
                return parts.count > 2 && parts[0] == "photos" && parts[1].hasPrefix("u") ? "photos/\(parts[1])" : nil
            })
        #expect(photoFolders.count == 2)

        let secrets =
            [
                "Nana birthday secret", "Kids party hidden", "Family Secret Album", "famtag", "nana-cake", "kids-party",
                "Only for the family", token
            ] + photoFolders.map { String($0.dropFirst("photos/".count)) }
        var leaks: [String] = []
        for path in files where !Self.isOwn(path, album: album, photoFolders: photoFolders) {
            let bytes = try Data(contentsOf: site.output.appendingPathComponent(path))
            for secret in secrets where bytes.range(of: Data(secret.utf8)) != nil || path.contains(secret) {
                leaks.append("\(path): \(secret)")
            }
        }
        #expect(leaks.isEmpty, "\(leaks)")
        // Public pages are still all there, and the album's own pages link to each other.
        #expect(try site.read("albums/index.html").contains("Trips"))
        #expect(try site.read("sitemap.xml").contains("photos/shore/"))
        #expect(try site.read("tags/sea/index.html").contains("Public cliff"))
        #expect(try site.brokenLinks().isEmpty)
        let own = try site.read(album + "/index.html")
        #expect(own.contains("Nana birthday secret") && own.contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(own.contains("kids/index.html"))
        for folder in photoFolders { #expect(try site.read(folder + "/index.html").contains("content=\"noindex\"")) }
        #expect(try !site.read("index.html").contains("noindex"))
        #expect(try !site.read("photos/shore/index.html").contains("noindex"))
        // The public album's card counts only its public photos.
        #expect(try site.read("albums/index.html").contains("2 photos"))

        // The next build keeps the same link, and changes nothing.
        let again = try await site.build()
        #expect(site.outputFiles() == files)
        #expect(again.pagesRendered == 0)
    }

    @Test func tokensAreStableKeyedAndDistinct() {
        let secret = SiteSecret(bytes: Array(repeating: 7, count: 32))
        #expect(
            secret.token("album", "Family")
                == SiteSecret(bytes: Array(repeating: 7, count: 32)).token("album", "Family"))
        #expect(secret.token("album", "Family") != secret.token("photo", "Family"))
        #expect(
            secret.token("album", "Family")
                != SiteSecret(bytes: Array(repeating: 8, count: 32)).token("album", "Family"))
        #expect(secret.token("album", "Family").count == SiteSecret.tokenLength)
        // Pinned: links already sent must keep working. HMAC-SHA256(key 01 02 03, "album\0Family"),
        // RFC 4648 base32 lowercased, 20 characters (Python: hmac + base64.b32encode).
        #expect(SiteSecret(bytes: [1, 2, 3]).token("album", "Family") == "n3dgmktbb5h5h5lh3le6")
    }

    @Test func secretComesFromTheEnvironmentOrAPrivateFile() throws {
        let state = try Fixtures.temporaryFolder()
        #expect(throws: SiteSecretError.tooShort(length: 5)) {
            try SiteSecretFile.load(stateDirectory: state, environment: [SiteSecretFile.environmentVariable: "short"])
        }
        // What `openssl rand -base64 32` prints: 44 characters, 256 random bits.
        let strong = Data((0..<32).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let fromEnvironment = try SiteSecretFile.load(
            stateDirectory: state, environment: [SiteSecretFile.environmentVariable: strong])
        #expect(fromEnvironment.created == nil && fromEnvironment.secret == Array(strong.utf8))
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent(SiteSecretFile.fileName).path))

        // Set but empty (a CI job's missing secret) reads as unset: the state's file is made.
        let (made, created) = try SiteSecretFile.load(
            stateDirectory: state, environment: [SiteSecretFile.environmentVariable: ""])
        let file = try #require(created)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let (read, again) = try SiteSecretFile.load(stateDirectory: state, environment: [:])
        #expect(again == nil && read == made && made.count == 32)
        // An earlier galleryssg's file (0644) is narrowed when read.
        #expect(chmod(file.path, 0o644) == 0)
        _ = try SiteSecretFile.load(stateDirectory: state, environment: [:])
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int == 0o600)
        for text in ["not hex\n", String(repeating: "ab", count: 16) + "\n", String(repeating: "00", count: 40) + "\n"]
        {
            try Data(text.utf8).write(to: file)
            #expect(throws: SiteSecretError.malformed(path: file.path)) {
                try SiteSecretFile.load(stateDirectory: state, environment: [:])
            }
        }
    }

    /// A secret from the environment must look random: 32 characters and 128 estimated bits at least.
    @Test func guessableSecretsAreRefused() throws {
        let state = try Fixtures.temporaryFolder()
        let weak = [
            "a long enough secret",  // 20 characters, the old minimum was 16
            String(repeating: "x", count: 40), "passwordpasswordpasswordpassword1",
            "Tr0ub4dor&3Tr0ub4dor&3Tr0ub4dor&3", "abcdefghijklmnopqrstuvwxyz0123456789",
            String(repeating: "0123456789", count: 4), "abababababababababababababababababab"
        ]
        for text in weak {
            #expect {
                try SiteSecretFile.load(stateDirectory: state, environment: [SiteSecretFile.environmentVariable: text])
            } throws: { error in
                let words = "\(error)"
                return error is SiteSecretError && words.contains("at least 32") && words.contains("128 bits")
                    && words.contains("openssl rand -base64 32")
            }
            #expect(SiteSecretFile.estimatedBits(text) < 128, "\(text)")
        }
        #expect(
            SiteSecretError.weak(length: 33, bits: 83).description.hasPrefix(
                "GALLERYSSG_SECRET has 33 characters but only about 83 bits of estimated entropy"))
        // 200 secrets as openssl makes them (base64 and hex of 32 random bytes) all pass.
        for _ in 0..<100 {
            let bytes = (0..<32).map { _ in UInt8.random(in: 0...255) }
            for text in [Data(bytes).base64EncodedString(), bytes.map { String(format: "%02x", $0) }.joined()] {
                #expect(throws: Never.self, "\(text)") { try SiteSecretFile.check(text) }
            }
        }
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent(SiteSecretFile.fileName).path))
    }

    /// A build from the state (`--offline`) has no album settings: the photos' marks put them back.
    @Test func marksSurviveWithoutAlbumSettings() {
        let secret = SiteSecret(bytes: Array(repeating: 1, count: 32))
        var manifest = Manifest(
            photos: [
                Photo(id: "a", album: "Family/Kids", image: .file(URL(fileURLWithPath: "/a.jpg"))),
                Photo(id: "b", album: "Public", image: .file(URL(fileURLWithPath: "/b.jpg")))
            ],
            albums: ["Family": AlbumInfo(cover: "a", unlisted: true)])
        let tokens = UnlistedAlbums.apply(&manifest, secret: secret)
        #expect(Set(tokens.keys) == ["Family"])
        let renamed = manifest.photos[0].id
        #expect(renamed.hasPrefix("u") && manifest.photos[0].unlistedIn == "Family" && manifest.photos[1].id == "b")
        #expect(manifest.albums["Family"]?.cover == renamed)

        var offline = Manifest(photos: manifest.photos)
        #expect(UnlistedAlbums.apply(&offline, secret: secret) == tokens)
        #expect(offline.photos.map(\.id) == manifest.photos.map(\.id))
        #expect(offline.albums["Family"]?.unlisted == true)
    }

    @Test func settingIsReadFromIndexAndManifest() throws {
        let index = try Fixtures.temporaryFolder().appendingPathComponent("index.md")
        try Data("---\nunlisted: true\n---\n".utf8).write(to: index)
        #expect(try AlbumIndex.read(index, photoIDsByFileName: [:]).info.unlisted == true)
        try Data("---\nunlisted: maybe\n---\n".utf8).write(to: index)
        #expect(throws: MetadataFileError.self) { try AlbumIndex.read(index, photoIDsByFileName: [:]) }
        var problems: [String] = []
        #expect(ManifestEntryMapper.albumInfo(["unlisted": .bool(true)], problems: &problems).unlisted == true)
        #expect(ManifestEntryMapper.albumInfo(["unlisted": .string("yes")], problems: &problems).unlisted == nil)
        #expect(problems == [#""unlisted" should be true or false, got a string; ignored"#])
    }
}
