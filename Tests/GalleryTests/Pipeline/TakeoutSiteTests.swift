import Foundation
import GalleryConfig
import GalleryModel
import GalleryPipeline
import Testing

/// A whole site from a folder laid out as Google Takeout exports one (Tests/Fixtures/takeout): every
/// photo published with its words, the EXIF time before Takeout's UTC one, the place only with
/// `images.showLocation`, and people as tags only with `source.peopleAsTags`.
@Suite("Site from a Google Takeout")
struct TakeoutSiteTests {
    static func build(_ extra: [String: Any] = [:], images: [String: Any] = [:]) async throws -> (
        BuildReport, URL
    ) {
        let folder = try Fixtures.temporaryFolder()
        var source: [String: Any] = ["type": "folder", "path": TakeoutTests.library.path]
        source.merge(extra) { _, new in new }
        let settings: [String: Any] = [
            "title": "Takeout", "source": source,
            "images": ["thumbnail": 64, "preview": 96, "widths": [80]].merging(images) { _, new in new }
        ]
        let file = folder.appendingPathComponent("site-config.json")
        try JSONSerialization.data(withJSONObject: settings).write(to: file)
        let config = try SiteConfig.load(from: file)
        let report = try await Build(config: config, options: BuildOptions(jobs: 2)).run()
        return (report, folder.appendingPathComponent("public"))
    }

    static func texts(_ output: URL) throws -> [String: String] {
        var texts: [String: String] = [:]
        let walker = FileManager.default.enumerator(atPath: output.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".html") || path.hasSuffix(".json") || path.hasSuffix(".xml") else { continue }
            texts[path] = try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
        }
        return texts
    }

    @Test func everyPhotoIsPublishedWithItsWordsAndNoPlace() async throws {
        let (report, output) = try await Self.build()
        #expect(report.photosPublished == 10)
        #expect(report.failures.map(\.id) == ["Photos from 2019/camera-settings.json"])
        let texts = try Self.texts(output)
        func page(_ name: String) throws -> String {
            try #require(texts[SiteLayout.photoPage(id: PhotoID.slug("Photos from 2019/\(name)"))], "\(name)")
        }
        #expect(try page("PXL_20190611_093000123").contains("Glacier lagoon"))
        #expect(try page("IMG_20190610_081405").contains("Harbour at dawn"))
        // No EXIF time: Takeout's UTC time. EXIF's local 07:08:09 wins over Takeout's 05:08:09 UTC.
        #expect(try page("IMG_20190610_081405").contains("2019-06-10T08:14:05Z"))
        let exif = try page("IMG_20190506_070809")
        #expect(exif.contains("2019-05-06T07:08:09") && !exif.contains("2019-05-06T05:08:09"))
        #expect(texts.values.contains { $0.contains("Iceland, June 2019") })
        // The place is private by default, and nobody's name is a tag.
        #expect(!texts.values.contains { $0.contains("64.1466") || $0.contains("63.4043") })
        #expect(texts["tags/anna/index.html"] == nil)
    }

    @Test func placeWithShowLocationAndPeopleWhenAsked() async throws {
        let (report, output) = try await Self.build(["peopleAsTags": true], images: ["showLocation": true])
        #expect(report.photosPublished == 10)
        let texts = try Self.texts(output)
        #expect(texts.values.contains { $0.contains("64.14660") })
        #expect(texts.values.contains { $0.contains("63.40430") })
        #expect(texts["tags/anna/index.html"] != nil && texts.keys.contains { $0.hasPrefix("tags/bj") })
    }

    /// `source.peopleAsTags` is a folder source's boolean, off by default; elsewhere or mistyped it is refused.
    @Test func peopleAsTagsIsCheckedInTheConfig() throws {
        let folder = try Fixtures.temporaryFolder()
        func load(_ source: String) throws -> SiteConfig {
            let file = folder.appendingPathComponent("site-config.json")
            try #"{"source": \#(source)}"#.write(to: file, atomically: true, encoding: .utf8)
            return try SiteConfig.load(from: file, environment: ["KEY": "k"])
        }
        #expect(try load(#"{"type": "folder", "path": "photos"}"#).peopleAsTags == false)
        #expect(try load(#"{"type": "folder", "path": "photos", "peopleAsTags": true}"#).peopleAsTags)
        for (source, words) in [
            (#"{"type": "folder", "path": "photos", "peopleAsTags": "yes"}"#, "source.peopleAsTags"),
            (#"{"type": "folder", "path": "photos", "peopleastags": true}"#, "did you mean \"peopleAsTags\""),
            (
                #"{"type": "immich", "url": "https://x.example", "apiKeyEnv": "KEY", "peopleAsTags": true}"#,
                "unknown key"
            )
        ] {
            do {
                _ = try load(source)
                Issue.record("\(source) was accepted")
            } catch {
                #expect("\(error)".contains(words), "\(error)")
            }
        }
    }
}
