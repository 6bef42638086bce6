import Foundation
import GalleryConfig
import GalleryModel
import GalleryPipeline
import GalleryProviders
import GalleryRender
import Testing

/// What an album's `index.md` says of its folder by name: `hidden` files, sub-folders and globs,
/// `order` lists and weights, Android's `.nomedia`, sigal's `.nozip_gallery`, Pelican's `Status:`.
@Suite struct FolderArrangementTests {
    static func library(_ files: [String: String], photos: [String]) throws -> URL {
        let root = try Fixtures.temporaryFolder().appendingPathComponent("photos")
        let jpeg = try Fixtures.data("images/photo-1.jpg")
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        for path in photos {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try jpeg.write(to: url)
        }
        return root
    }

    /// The album's photos (file names) and sub-albums (paths) in the order the site shows them.
    static func arranged(_ manifest: Manifest, sort: PhotoSort = .newestFirst) -> (
        photos: [String: [String]], albums: [String: [String]]
    ) {
        let facts = manifest.photos.map(ItemFacts.init)
        let tree = AlbumTree(facts, sources: Array(facts.indices), infos: manifest.albums, sort: sort)
        var photos: [String: [String]] = [:]
        var albums: [String: [String]] = ["": tree.roots.map { tree.albums[$0].path }]
        for album in tree.albums {
            photos[album.path] = album.members.map {
                (manifest.photos[$0].image.description as NSString).lastPathComponent
            }
            albums[album.path] = album.children.map { tree.albums[$0].path }
        }
        return (photos, albums)
    }

    @Test func orderListsNamesAndGlobsFirstThenWeightsThenTheSort() async throws {
        let root = try Self.library(
            [
                "Trip/index.md": "---\nsort: name\norder: [c.jpg, \"IMG_2*.jpg\", Day 2, b.jpg]\n---\n",
                "Trip/a.md": "---\norder: 5\n---\n",
                "Trip/d.md": "---\nweight: 1\n---\n",
                "Trip/Day 1/index.md": "---\nweight: 9\n---\n",
                "Trip/Day 3/index.md": "---\nweight: 2\n---\n"
            ],
            photos: [
                "Trip/a.jpg", "Trip/b.jpg", "Trip/c.jpg", "Trip/d.jpg", "Trip/e.jpg", "Trip/IMG_20.jpg",
                "Trip/IMG_3.jpg", "Trip/IMG_21.jpg", "Trip/Day 1/x.jpg", "Trip/Day 2/y.jpg", "Trip/Day 3/z.jpg",
                "Trip/Day 4/w.jpg"
            ])
        let manifest = try await FolderProvider(folder: root).fetchManifest()
        #expect(manifest.warnings.isEmpty, "\(manifest.warnings)")
        let arranged = Self.arranged(manifest)
        // The list's entries in its order (a glob's matches by the album's sort), then weights, then the rest.
        #expect(
            arranged.photos["Trip"] == [
                "c.jpg", "IMG_20.jpg", "IMG_21.jpg", "b.jpg", "d.jpg", "a.jpg", "e.jpg", "IMG_3.jpg"
            ])
        #expect(arranged.albums["Trip"] == ["Trip/Day 2", "Trip/Day 3", "Trip/Day 1", "Trip/Day 4"])
    }

    @Test func anOrderEntryThatNamesNothingIsWarnedWithTheNearestName() async throws {
        let root = try Self.library(
            ["Trip/index.md": "---\norder: [IMG_0042.jpg, Day 1/]\n---\n"], photos: ["Trip/IMG_0024.jpg"])
        let manifest = try await FolderProvider(folder: root).fetchManifest()
        #expect(
            manifest.warnings.map(\.reason) == [
                #"order lists "IMG_0042.jpg", which matches no file or sub-folder in Trip/: it places nothing; did you mean "IMG_0024.jpg"?"#,
                #"order lists "Day 1/", which matches no file or sub-folder in Trip/: it places nothing; check the name, its case and extension"#
            ])
        #expect(manifest.warnings.first?.item == "Trip/index.md")
    }

    @Test func hiddenTakesFilesSubFoldersAndGlobsAndWarnsOfMisspellings() async throws {
        let root = try Self.library(
            [
                "Trip/index.md": "---\nhidden: [b.jpg, Outtakes/, \"raw-*.jpg\", c.jgp, IMG_1.MOV]\n---\n",
                "Trip/Outtakes/notes.pdf": "%PDF"
            ],
            photos: [
                "Trip/a.jpg", "Trip/b.jpg", "Trip/c.jpg", "Trip/raw-1.jpg", "Trip/raw-2.jpg", "Trip/Outtakes/o.jpg",
                "Trip/Outtakes/Deeper/p.jpg", "Trip/IMG_1.jpg", "Trip/IMG_1.MOV"
            ])
        let manifest = try await FolderProvider(folder: root).fetchManifest()
        let published = manifest.photos.map { ($0.image.description as NSString).lastPathComponent }
        #expect(published.sorted() == ["IMG_1.jpg", "a.jpg", "c.jpg"])
        // The Live Photo's clip is hidden: the still is published without its motion.
        #expect(manifest.photos.first { $0.image.description.hasSuffix("IMG_1.jpg") }?.motion == nil)
        let ignored = Dictionary(uniqueKeysWithValues: manifest.ignored.map { ($0.path, $0.reason) })
        #expect(ignored["Trip/b.jpg"] == .hiddenBy("Trip/index.md"))
        #expect(ignored["Trip/raw-2.jpg"] == .hiddenBy("Trip/index.md"))
        #expect(ignored["Trip/IMG_1.MOV"] == .hiddenBy("Trip/index.md"))
        #expect(ignored["Trip/Outtakes/"] == .folderHiddenBy("Trip/index.md"))
        #expect(ignored["Trip/Outtakes/Deeper/p.jpg"] == nil)
        // What sits in a hidden folder is hidden on purpose: not reported as a file it cannot use.
        #expect(manifest.issues.isEmpty, "\(manifest.issues)")
        #expect(
            manifest.warnings.map(\.reason) == [
                #"hidden lists "c.jgp", which matches no file or sub-folder in Trip/: nothing was hidden by it; did you mean "c.jpg"?"#
            ])
    }

    @Test func noMediaHidesItsFolderOrTheNamesItLists() async throws {
        let root = try Self.library(
            ["Phone/WhatsApp/.nomedia": "", "Phone/Camera/.nomedia": "private.jpg\nScreens/\n"],
            photos: [
                "Phone/WhatsApp/sticker.jpg", "Phone/WhatsApp/Sent/s.jpg", "Phone/Camera/a.jpg",
                "Phone/Camera/private.jpg", "Phone/Camera/Screens/s1.jpg", "Phone/Camera/Trip/t.jpg"
            ])
        let manifest = try await FolderProvider(folder: root).fetchManifest()
        let published = manifest.photos.map { $0.image.description.replacingOccurrences(of: root.path + "/", with: "") }
        #expect(published == ["Phone/Camera/Trip/t.jpg", "Phone/Camera/a.jpg"])
        let ignored = Dictionary(uniqueKeysWithValues: manifest.ignored.map { ($0.path, $0.reason) })
        #expect(ignored["Phone/WhatsApp/"] == .folderHiddenBy("Phone/WhatsApp/.nomedia"))
        #expect(ignored["Phone/WhatsApp/.nomedia"] == .markerObeyed)
        #expect(ignored["Phone/Camera/private.jpg"] == .hiddenBy("Phone/Camera/.nomedia"))
        #expect(ignored["Phone/Camera/Screens/"] == .folderHiddenBy("Phone/Camera/.nomedia"))
        #expect(manifest.issues.isEmpty, "\(manifest.issues)")
    }

    @Test func anAlbumCanSwitchItsZipOff() async throws {
        let root = try Self.library(
            ["Sigal/.nozip_gallery": "", "Own/index.md": "---\nzip: false\n---\n"],
            photos: ["Sigal/a.jpg", "Own/b.jpg", "Zipped/c.jpg"])
        let manifest = try await FolderProvider(folder: root).fetchManifest()
        #expect(manifest.albums["Sigal"]?.zip == false)
        #expect(manifest.albums["Own"]?.zip == false)
        #expect(manifest.ignored.first { $0.path == "Sigal/.nozip_gallery" }?.reason == .markerObeyed)
        let facts = manifest.photos.map(ItemFacts.init)
        let tree = AlbumTree(
            facts, sources: Array(facts.indices), infos: manifest.albums, sort: .newestFirst, download: .album)
        let zipped = tree.albums.filter(\.zipped).map(\.path)
        #expect(zipped == ["Zipped"])
    }

    @Test func pelicansStatusLeavesDraftsOutAndHidesHiddenAlbums() async throws {
        let root = try Self.library(
            [
                "Draft/index.md": "Title: Later\nStatus: draft\n\nNot yet.\n",
                "Quiet/index.md": "Title: Quiet\nStatus: hidden\n",
                "Open/a.md": "Title: Gone\nStatus: draft\n",
                "Open/b.md": "Title: Shown\nStatus: published\n"
            ],
            photos: ["Draft/x.jpg", "Quiet/y.jpg", "Open/a.jpg", "Open/b.jpg"])
        let manifest = try await FolderProvider(folder: root).fetchManifest()
        #expect(manifest.photos.map(\.id).sorted() == ["open-b", "quiet-y"])
        #expect(manifest.albums["Quiet"]?.unlisted == true)
        #expect(manifest.photos.first { $0.id == "open-b" }?.title == "Shown")
        #expect(manifest.warnings.isEmpty, "\(manifest.warnings)")
    }

    /// A built album page shows its photos in the hand-made order, and a `.nozip_gallery` album no zip.
    @Test func aBuiltSiteFollowsTheOrderAndTheMarkers() async throws {
        let root = try Self.library(
            [
                "Trip/index.md": "---\norder: [c.jpg, a.jpg]\n---\n", "Trip/.nozip_gallery": "",
                "Phone/.nomedia": "", "Open/index.md": "---\nhidden: [secret.jpg]\n---\n"
            ],
            photos: ["Trip/a.jpg", "Trip/b.jpg", "Trip/c.jpg", "Phone/p.jpg", "Open/o.jpg", "Open/secret.jpg"])
        let site = root.deletingLastPathComponent()
        let config: [String: Any] = [
            "title": "Arranged", "source": ["type": "folder", "path": "photos"], "download": "album",
            "images": ["thumbnail": 64, "preview": 96, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: site.appendingPathComponent("site-config.json"))
        let report = try await Build(
            config: try SiteConfig.load(from: site.appendingPathComponent("site-config.json"), environment: [:]),
            options: BuildOptions(jobs: 2)
        ).run()
        #expect(report.photosPublished == 4, "\(report.failures)")
        let output = site.appendingPathComponent("public")
        let page = try String(contentsOf: output.appendingPathComponent("albums/trip/index.html"), encoding: .utf8)
        let places = ["photos/trip-c/", "photos/trip-a/", "photos/trip-b/"].map { page.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil } && places == places.sorted { $0! < $1! }, "\(places)")
        let files = try FileManager.default.subpathsOfDirectory(atPath: output.path)
        #expect(files.contains { $0.hasPrefix("albums/open/") && $0.hasSuffix(".zip") })
        #expect(!files.contains { $0.hasPrefix("albums/trip/") && $0.hasSuffix(".zip") })
        #expect(!files.contains { $0.contains("phone") || $0.contains("secret") })
    }

    @Test func manualPlacesComeFirstAndKeepTheirTies() {
        #expect(PhotoOrder.manual([10, 11, 12, 13, 14]) { [11: 2, 13: 0, 14: 2][$0] } == [13, 11, 14, 10, 12])
        #expect(PhotoOrder.manual([3, 1, 2]) { _ in nil } == [3, 1, 2])
    }
}
