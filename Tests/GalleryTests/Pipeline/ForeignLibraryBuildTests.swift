import Foundation
import GalleryConfig
import GalleryPipeline
import GalleryProviders
import Testing

/// A library shaped by sigal and Hugo, built as it is: every photo published with the titles,
/// covers and descriptions those tools wrote, drafts left out, and no header line shown as text.
@Suite struct ForeignLibraryBuildTests {
    /// The folder, as sigal and Hugo write theirs (sigal's "Album information", Hugo's page bundles).
    static let files: [String: String] = [
        "Trip/index.md":
            "Title: An example gallery\nThumbnail: photo-2.jpg\nOrder: 03\nAuthor: Ada\n\nLorem *ipsum*.\n",
        "Trip/photo-1.md": "Title: First light\n\nThe harbour at dawn.\n",
        // A capitalised key inside `---`: a warning, and the photo is still published.
        "Trip/photo-3.md": "---\nTitle: Capital key\nrating: 4\n---\nStill published.\n",
        "Harbour/index.md": """
        ---
        title: Harbour bundle
        description: Boats at rest.
        weight: 2
        resources:
        - src: "photo-4.*"
          title: Blue boat
          params:
            description: Moored since May.
        ---

        """,
        "Bay/index.md":
            "+++\ntitle = \"The bay\"\nweight = 1\n\n[[resources]]\nsrc = \"*.png\"\ntitle = \"Glass float\"\n+++\n",
        "Draft/_index.md": "+++\ntitle = \"Not yet\"\ndraft = true\n+++\nUnfinished.\n"
    ]

    static let photos: [String: String] = [
        "Trip/photo-1.jpg": "photo-1.jpg", "Trip/photo-2.jpg": "photo-2.jpg", "Trip/photo-3.jpg": "photo-3.jpg",
        "Harbour/photo-4.jpg": "photo-4.jpg", "Harbour/photo-5.jpg": "photo-5.jpg",
        "Bay/float.png": "half-transparent.png", "Draft/photo-6.jpg": "photo-6.jpg"
    ]

    static func make() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        let source = folder.appendingPathComponent("photos")
        for (path, text) in files {
            let url = source.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        for (path, image) in photos {
            try FileManager.default.copyItem(
                at: Fixtures.url("images/\(image)"), to: source.appendingPathComponent(path))
        }
        let config: [String: Any] = [
            "title": "Moved", "source": ["type": "folder", "path": "photos"],
            "images": ["thumbnail": 64, "preview": 96, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        return folder
    }

    @Test func manifestMapsEveryToolsFields() async throws {
        let folder = try Self.make()
        let manifest = try await FolderProvider(folder: folder.appendingPathComponent("photos")).fetchManifest()
        #expect(manifest.issues.isEmpty, "\(manifest.issues)")
        #expect(manifest.albums["Trip"]?.title == "An example gallery")
        #expect(manifest.albums["Trip"]?.cover == "trip-photo-2")
        #expect(manifest.albums["Trip"]?.description == "Lorem *ipsum*.")
        #expect(manifest.albums["Harbour"]?.description == "Boats at rest.")
        let byID = Dictionary(uniqueKeysWithValues: manifest.photos.map { ($0.id, $0) })
        #expect(byID["trip-photo-1"]?.title == "First light")
        #expect(byID["trip-photo-3"]?.rating == 4 && byID["trip-photo-3"]?.description == "Still published.")
        #expect(byID["harbour-photo-4"]?.title == "Blue boat")
        #expect(byID["bay-float"]?.title == "Glass float")
        #expect(byID["draft-photo-6"] == nil)
        #expect(manifest.ignored.first { $0.path == "Draft/photo-6.jpg" }?.reason == .hiddenBy("Draft/_index.md"))
        #expect(manifest.warnings.map(\.item) == ["trip-photo-3"])
        let unknown = #"photo-3.md:2: unknown key "Title" left out; did you mean "title"?"#
        #expect(manifest.warnings.first?.reason.hasSuffix(unknown) == true)
    }

    @Test func publishesEveryPhotoAndNoHeaderLine() async throws {
        let folder = try Self.make()
        let config = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"), environment: [:])
        let report = try await Build(config: config, options: BuildOptions(jobs: 2)).run()
        #expect(report.photosPublished == 6, "\(report.failures)")
        #expect(report.failures.isEmpty, "\(report.failures)")
        #expect(report.warnings.map(\.id) == ["trip-photo-3"], "\(report.warnings)")
        let output = folder.appendingPathComponent("public")
        func read(_ path: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
        }
        #expect(try read("photos/trip-photo-1/index.html").contains("The harbour at dawn."))
        #expect(try read("photos/harbour-photo-4/index.html").contains("Moored since May."))
        #expect(try read("albums/trip/index.html").contains("An example gallery"))
        #expect(try read("albums/harbour/index.html").contains("Boats at rest."))
        // sigal's `Order:` and Hugo's `weight` place the albums: Bay (1), Harbour (2), Trip (03).
        let index = try read("albums/index.html")
        let places = ["bay/", "harbour/", "trip/"].map { index.range(of: $0)?.lowerBound }
        #expect(places.allSatisfy { $0 != nil } && places == places.sorted { $0! < $1! }, "\(places)")
        // No page or data file shows a header line, a TOML line or the draft.
        let enumerator = try #require(FileManager.default.enumerator(at: output, includingPropertiesForKeys: nil))
        var checked = 0
        for case let url as URL in enumerator where ["html", "json", "xml", "txt"].contains(url.pathExtension) {
            let text = try String(contentsOf: url, encoding: .utf8)
            for line in ["Title:", "Thumbnail:", "Order:", "Author: Ada", "title =", "+++", "Not yet", "Unfinished"] {
                #expect(!text.contains(line), "\(url.path) shows \(line)")
            }
            checked += 1
        }
        #expect(checked > 10)
    }

    /// `build --strict` fails on the unknown key, naming the file, line and the key meant.
    @Test func strictFailsOnUnknownKey() throws {
        let folder = try Self.make()
        let (status, text) = try IncrementalFixtures.run([
            "build", "--config", folder.appendingPathComponent("site-config.json").path, "--strict"
        ])
        #expect(status == 3, "\(text)")
        #expect(text.contains(#"photo-3.md:2: unknown key "Title" left out; did you mean "title"?"#), "\(text)")
    }
}
