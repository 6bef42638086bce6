import Foundation
import GalleryConfig
import GalleryModel
import GalleryOutput
import GalleryPipeline
import GalleryProviders
import GalleryStore
import GalleryVault
import Testing

/// Password-protected albums: nothing of a protected photo or album is published in the clear,
/// anywhere in the output (pages, JSON, XML, scripts, file names, image files); the encrypted files
/// decrypt with the album's key to what was rendered; rebuilds are byte-identical, a new key
/// re-encrypts everything (a new password too: ProtectedPasswordChangeTests).
@Suite("Protected albums")
struct ProtectedAlbumTests {
    static let password = "correct horse battery staple"
    static var entries: [[String: Any]] {
        [
            ["id": "shore", "title": "Public shore", "image": "photos/photo-1.jpg", "album": "Trips", "tags": ["sea"]],
            [
                "id": "nana-cake-id", "title": "Nana birthday secret", "image": "photos/nana-original-name.jpg",
                "album": "Family",
                "tags": ["famtag", "sea"], "description": "Caption only for the family",
                "camera": ["make": "Secretcam", "model": "Hushmodel 9"]
            ],
            [
                "id": "kids-party-id", "title": "Kids party hidden", "image": "photos/photo-4.jpg",
                "album": "Family/Kids Corner",
                "tags": ["kidtag"]
            ],
            ["id": "garden-id", "title": "Garden secret party", "image": "photos/photo-6.jpg", "album": "Family"],
            ["id": "loose", "title": "Loose photo", "image": "photos/photo-5.jpg"]
        ]
    }
    /// Every text about the protected photos and albums that must not appear in the clear.
    static let secrets = [
        "Nana birthday secret", "Kids party hidden", "Family Album Secret Title", "Kids Corner", "famtag", "kidtag",
        "Caption only for the family", "Secretcam", "Hushmodel", "nana-original-name", "nana-cake-id",
        "kids-party-id", "A secret description", "Garden secret party", "garden-id"
    ]

    static func site(password: String = ProtectedAlbumTests.password) throws -> FixtureSite {
        let site = try FixtureSite.make(entries: entries, config: ["pageSize": 24])
        try FileManager.default.copyItem(
            at: site.folder.appendingPathComponent("photos/photo-3.jpg"),
            to: site.folder.appendingPathComponent("photos/nana-original-name.jpg"))
        try write(site, password: password)
        return site
    }

    static func write(_ site: FixtureSite, password: String) throws {
        // Trips names a protected photo as its cover: its card must not show it (nor its folder).
        let albums: [String: Any] = [
            "Family": [
                "password": password, "title": "Family Album Secret Title",
                "description": "A secret description"
            ],
            "Trips": ["cover": "nana-cake-id"]
        ]
        try JSONSerialization.data(withJSONObject: ["photos": entries, "albums": albums])
            .write(to: site.folder.appendingPathComponent("manifest.json"))
    }

    /// Every published file's bytes by path.
    static func published(_ site: FixtureSite) throws -> [String: Data] {
        Dictionary(
            uniqueKeysWithValues: try site.outputFiles().map {
                ($0, try Data(contentsOf: site.output.appendingPathComponent($0)))
            })
    }

    @Test func nothingProtectedIsPublishedInTheClear() async throws {
        let site = try Self.site()
        let report = try await site.build()
        #expect(report.failures.isEmpty, "\(report.failures)")
        let files = try Self.published(site)
        var leaks: [String] = []
        for (path, bytes) in files {
            for secret in Self.secrets
            where path.contains(secret) || bytes.range(of: Data(secret.utf8)) != nil
                || path.lowercased().contains(PhotoID.slug(secret))
            {
                leaks.append("\(path): \(secret)")
            }
        }
        #expect(leaks.isEmpty, "\(leaks)")
        // The public part is all there; the protected album is a shell that names nothing.
        #expect(try site.read("photos/shore/index.html").contains("Public shore"))
        let shells = files.keys.filter {
            $0.hasSuffix("/index.html")
                && files[$0].map { String(decoding: $0, as: UTF8.self).contains("id=\"protected\"") } == true
        }
        #expect(shells.count == 5, "\(shells.sorted())")  // the album, its sub-album, three photo pages
        #expect(
            shells.allSatisfy {
                files[$0].map { String(decoding: $0, as: UTF8.self).contains("content=\"noindex\"") } == true
            })
        #expect(files[SiteLayout.serviceWorker] != nil)
        // Hosts that read `_headers`, and the S3 deploy (which reads it for each object), keep the album's files private.
        let headers = HeadersFile(try site.read("_headers"))
        let sealedFiles = files.keys.filter {
            $0.hasSuffix(SiteLayout.sealedPage)
                || ($0.hasPrefix("photos/") && !$0.hasPrefix("photos/shore")
                    && !$0.hasPrefix("photos/loose") && $0 != "photos/index.html")  // the folder's index page
        }
        #expect(
            !sealedFiles.isEmpty && sealedFiles.allSatisfy { headers.value("Cache-Control", for: $0) == "private" },
            "\(sealedFiles)")
        #expect(headers.value("Cache-Control", for: "photos/shore/index.html") == nil)
        #expect(try site.brokenLinks().isEmpty)

        // The album's pages decrypt with its key to what was rendered, photos and sub-album included.
        let store = try AlbumKeyStore.load(stateDirectory: site.folder.appendingPathComponent(".galleryssg"))
        let entry = try #require(store.entries["Family"])
        let key = try ContentKey(raw: Array(try #require(Data(base64Encoded: entry.key))))
        #expect(try KeyFile(json: Data(entry.keyFile.utf8)).unwrap(password: Self.password) == key)
        let sealedAlbum = try #require(shells.first { $0.hasPrefix("albums/") && $0.split(separator: "/").count == 3 })
        // The album's token (its link) is in no public file but `_headers`, whose rules name its folders.
        let token = String(sealedAlbum.split(separator: "/")[1])
        let naming = files.filter { path, bytes in
            !path.hasPrefix("albums/\(token)/") && !path.hasPrefix("photos/\(token)-")
                && bytes.range(of: Data(token.utf8)) != nil
        }
        #expect(naming.keys.sorted() == ["_headers"], "\(naming.keys.sorted())")
        let sealedPath = String(sealedAlbum.dropLast("index.html".count)) + SiteLayout.sealedPage
        let page = String(decoding: try key.decrypt(try #require(files[sealedPath]), path: sealedPath), as: UTF8.self)
        #expect(
            page.contains("Family Album Secret Title") && page.contains("Nana birthday secret")
                && page.contains("Kids Corner"))
        // Every image the page names is published (under its opaque name) and decrypts to a JPEG.
        let names = try NSRegularExpression(pattern: #"photos/[a-z2-7-]+/[a-z2-7]{26}\.jpg"#)
        let referenced = Set(
            names.matches(in: page, range: NSRange(page.startIndex..., in: page)).map {
                String(page[Range($0.range, in: page)!])
            })
        #expect(!referenced.isEmpty)
        for path in referenced {
            let plain = try key.decrypt(try #require(files[path], "\(path)"), path: path)
            #expect(plain.prefix(2) == [0xFF, 0xD8])
        }
    }

    @Test func rebuildsKeepCiphertextAndRekeyingEncryptsAgain() async throws {
        let site = try Self.site()
        _ = try await site.build()
        let first = try Self.published(site)
        _ = try await site.build()
        #expect(try Self.published(site) == first)

        // A new content key (what `galleryssg rekey` does) re-encrypts every file under new names.
        let config = try SiteConfig.load(from: site.configURL, environment: [:])
        #expect(try Maintenance.protectedAlbums(config) == ["Family"])
        #expect(try !Maintenance.rekey(config, album: "Trips"))
        #expect(try Maintenance.rekey(config, album: "Family"))
        #expect(try Maintenance.protectedAlbums(config).isEmpty)
        _ = try await site.build()
        let rekeyed = try Self.published(site)
        let sealed = first.keys.filter { $0.hasSuffix(SiteLayout.sealedPage) }
        #expect(!sealed.isEmpty && sealed.allSatisfy { rekeyed[$0] != nil && rekeyed[$0] != first[$0] })
        #expect(
            first.keys.filter { $0.hasSuffix(".jpg") && $0.contains("-") && !$0.hasPrefix("photos/shore") }
                .allSatisfy { rekeyed[$0] == nil })
    }

    @Test func aMissingPasswordStopsTheBuildAndKeepsTheSite() async throws {
        let site = try Self.site()
        _ = try await site.build()
        let before = try Self.published(site)
        let albums: [String: Any] = ["Family": ["passwordEnv": "GALLERYSSG_TEST_UNSET_PASSWORD"]]
        try JSONSerialization.data(withJSONObject: ["photos": Self.entries, "albums": albums])
            .write(to: site.folder.appendingPathComponent("manifest.json"))
        await #expect(throws: (any Error).self) { try await site.build() }
        #expect(try Self.published(site) == before)
        #expect(ProtectedAlbumError.unsetEnvironment(album: "Family", name: "X").description.contains("export X="))
    }

    @Test func nestedPasswordsAreRefused() throws {
        var manifest = Manifest(photos: [], albums: ["A": AlbumInfo(), "A/B": AlbumInfo()])
        manifest.albums["A"]?.password = "one long password"
        manifest.albums["A/B"]?.password = "another long password"
        var store = AlbumKeyStore(file: URL(fileURLWithPath: "/nonexistent/keys.json"), entries: [:])
        #expect(throws: ProtectedAlbumError.nested(album: "A/B", inside: "A")) {
            try ProtectedAlbums.apply(
                &manifest, secret: SiteSecret(bytes: [1, 2, 3]), store: &store, environment: [:],
                parameters: .forTesting(iterations: 1000))
        }
    }
}
