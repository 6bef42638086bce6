import Foundation
import GalleryConfig
import GalleryOutput
import GalleryPipeline
import GalleryStore
import Testing

/// The differential build: a site built with its protected and unlisted albums and the same site
/// built without them (the same secret) publish the same bytes in every file the second one has.
/// Whatever sits in the output folder may be uploaded as it is by any tool, so no public file may
/// name, count or date what is hidden; the files only the first build has are the hidden albums' own.
@Suite("Hidden albums, differential build")
struct HiddenDifferentialTests {
    /// Public photos whose dates fall between the hidden ones', so a count of hidden photos would
    /// show as a gap between public neighbours.
    static var publicEntries: [[String: Any]] {
        [
            ["id": "dawn", "title": "Dawn", "image": "photos/photo-1.jpg", "takenAt": "2024-01-01T08:00:00Z"],
            [
                "id": "shore", "title": "Shore", "image": "photos/photo-2.jpg", "album": "Trips",
                "tags": ["sea"], "takenAt": "2024-01-03T08:00:00Z"
            ],
            [
                "id": "cliff", "title": "Cliff", "image": "photos/photo-5.jpg", "album": "Trips",
                "tags": ["sea"], "takenAt": "2024-01-05T08:00:00Z"
            ],
            ["id": "noon", "title": "Noon", "image": "photos/photo-6.jpg", "takenAt": "2024-01-07T08:00:00Z"]
        ]
    }

    /// A protected album, an unlisted album beside a public one of the same name (whose address
    /// must not become `trips-2`), an unlisted album inside a public one, and one under a parent that
    /// holds nothing public.
    static var hiddenEntries: [[String: Any]] {
        [
            [
                "id": "cake", "title": "Cake secret", "image": "photos/photo-3.jpg", "album": "Family",
                "tags": ["sea", "famtag"], "takenAt": "2024-01-02T08:00:00Z"
            ],
            [
                "id": "party", "title": "Party secret", "image": "photos/photo-4.jpg", "album": "Trips/Private",
                "tags": ["sea"], "takenAt": "2024-01-04T08:00:00Z"
            ],
            [
                "id": "twin", "title": "Twin secret", "image": "photos/photo-3.jpg", "album": "Trips!",
                "takenAt": "2024-01-06T08:00:00Z"
            ],
            [
                "id": "attic", "title": "Attic secret", "image": "photos/photo-4.jpg", "album": "Private/Attic",
                "takenAt": "2024-01-06T09:00:00Z"
            ]
        ]
    }

    static var hiddenAlbums: [String: Any] {
        [
            "Family": ["password": "correct horse battery staple", "title": "Family"],
            "Trips/Private": ["unlisted": true],
            "Trips!": ["unlisted": true],
            "Private/Attic": ["unlisted": true]
        ]
    }

    static func site(hidden: Bool) throws -> FixtureSite {
        let config: [String: Any] = [
            "pageSize": 2, "images": ["thumbnail": 64, "preview": 120, "widths": [80]]
        ]
        let entries = publicEntries + (hidden ? hiddenEntries : [])
        let site = try FixtureSite.make(entries: entries, config: config)
        let albums: [String: Any] = ["Trips": ["title": "Trips"]].merging(hidden ? hiddenAlbums : [:]) { $1 }
        try JSONSerialization.data(withJSONObject: ["photos": entries, "albums": albums])
            .write(to: site.folder.appendingPathComponent("manifest.json"))
        return site
    }

    static func bytes(_ site: FixtureSite) throws -> [String: Data] {
        Dictionary(
            uniqueKeysWithValues: try site.outputFiles().map {
                ($0, try Data(contentsOf: site.output.appendingPathComponent($0)))
            })
    }

    @Test func publicFilesAreTheSameWithAndWithoutHiddenAlbums() async throws {
        let with = try Self.site(hidden: true)
        let report = try await with.build()
        #expect(report.failures.isEmpty, "\(report.failures)")
        let without = try Self.site(hidden: false)
        // The same secret: copied from the first build's state before the second build.
        let stateWith = try SiteConfig.load(from: with.configURL, environment: [:]).stateDirectory
        let stateWithout = try SiteConfig.load(from: without.configURL, environment: [:]).stateDirectory
        try FileManager.default.createDirectory(at: stateWithout, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: stateWith.appendingPathComponent(SiteSecretFile.fileName),
            to: stateWithout.appendingPathComponent(SiteSecretFile.fileName))
        _ = try await without.build()

        let hiddenSite = try Self.bytes(with)
        let publicSite = try Self.bytes(without)
        var differing: [String] = []
        for (path, data) in publicSite where hiddenSite[path] != data && path != "_headers" {
            differing.append(path + (hiddenSite[path] == nil ? " (missing)" : ""))
        }
        #expect(differing.isEmpty, "public files that differ: \(differing.sorted())")
        // What only the build with hidden albums has lies in their folders: folders named by tokens
        // (photos/TOKEN/, an unlisted album's albums/…/SLUG-TOKEN/, which is its link), the protected
        // album's sealed files, and the page of the album that holds nothing public (not listed,
        // noindex). No photo's id or title names a file, and the protected album's name names none.
        let extra = Set(hiddenSite.keys).subtracting(publicSite.keys)
        #expect(!extra.isEmpty)
        for path in extra.sorted() {
            for secret in ["cake", "party", "twin", "Cake", "Party", "Twin", "family", "famtag"] {
                #expect(!path.contains(secret), "\(path) names \(secret)")
            }
        }
        // `_headers` names the protected album's folders (to keep them out of shared caches), by tokens only.
        let headers = try with.read("_headers")
        for secret in ["cake", "party", "twin", "attic", "family", "trips"] {
            #expect(!headers.lowercased().contains(secret), "_headers names \(secret)")
        }
        let emptyParent = try String(
            contentsOf: with.output.appendingPathComponent("albums/private/index.html"), encoding: .utf8)
        #expect(emptyParent.contains(#"<meta name="robots" content="noindex">"#))
        #expect(!emptyParent.contains("attic") && !emptyParent.contains("Attic"))
        #expect(!(try with.read("sitemap.xml")).contains("albums/private/"))
        #expect(!(try with.read("albums/index.html")).contains("private"))
        // The public album keeps its address though a hidden one beside it has the same name.
        #expect(hiddenSite["albums/trips/index.html"] != nil)
        #expect(!hiddenSite.keys.contains { $0.hasPrefix("albums/trips-2/") })
    }

    @Test func outputFolderNamesNoPathOfTheSite() async throws {
        let site = try Self.site(hidden: true)
        _ = try await site.build()
        _ = try await site.build()
        let root = try FileManager.default.contentsOfDirectory(atPath: site.output.path)
        #expect(!root.contains(SiteMarker.legacyFilesName))
        let marker = try Data(contentsOf: site.output.appendingPathComponent(SiteMarker.fileName))
        let object = try #require(try JSONSerialization.jsonObject(with: marker) as? [String: Any])
        #expect(Set(object.keys) == ["format", "site"])
        // Every folder a visitor can reach has an index page, so a host that lists folders lists none.
        var folders = Set<String>()
        for path in site.outputFiles() {
            var folder = (path as NSString).deletingLastPathComponent
            while !folder.isEmpty {
                folders.insert(folder)
                folder = (folder as NSString).deletingLastPathComponent
            }
        }
        let bare = folders.filter {
            !FileManager.default.fileExists(atPath: site.output.appendingPathComponent($0 + "/index.html").path)
        }
        #expect(bare.isEmpty, "folders without index.html: \(bare.sorted())")
        // The state keeps the list, readable by its owner alone.
        let config = try SiteConfig.load(from: site.configURL, environment: [:])
        let list = try #require(SiteBook(stateDirectory: config.stateDirectory).listPath(of: site.output))
        let mode = try FileManager.default.attributesOfItem(atPath: list)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect((try String(contentsOfFile: list, encoding: .utf8)).contains("albums/trips/index.html"))
    }

    /// A site an earlier version built kept its record in the marker and its list beside it; the
    /// next build reads them as they are and moves both into the state.
    @Test func aSiteOfTheEarlierFormatMovesItsListIntoTheState() async throws {
        let site = try Self.site(hidden: true)
        _ = try await site.build()
        let config = try SiteConfig.load(from: site.configURL, environment: [:])
        let book = config.siteBook
        let record = try #require(book.record(of: site.output))
        let list = try Data(contentsOf: URL(fileURLWithPath: try #require(book.listPath(of: site.output))))
        // As the earlier version left it: the record in the marker, the list beside it, none in the state.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        var legacy = try #require(try JSONSerialization.jsonObject(with: encoder.encode(record)) as? [String: Any])
        legacy["format"] = 1
        legacy["folderIndexes"] = nil
        try JSONSerialization.data(withJSONObject: legacy).write(
            to: site.output.appendingPathComponent(SiteMarker.fileName))
        try list.write(to: site.output.appendingPathComponent(SiteMarker.legacyFilesName))
        try FileManager.default.removeItem(at: book.folder)
        #expect(
            book.files(of: site.output)
                == Set(String(decoding: list, as: UTF8.self).split(separator: "\0").map(String.init)))

        let report = try await site.build()
        #expect(report.failures.isEmpty)
        let root = try FileManager.default.contentsOfDirectory(atPath: site.output.path)
        #expect(!root.contains(SiteMarker.legacyFilesName))
        #expect(SiteMarker.read(in: site.output)?.site != nil)
        #expect(book.files(of: site.output)?.contains("albums/trips/index.html") == true)
        // Nothing was taken for a file galleryssg did not write: nothing moved aside.
        #expect(
            !(try FileManager.default.contentsOfDirectory(atPath: site.folder.path)).contains {
                $0.contains("galleryssg-moved")
            })
    }
}
