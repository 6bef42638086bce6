import Foundation
import Testing

/// `images.avif` in a build: pages offer the AVIF files first, and they are cached like every derivative.
@Suite("AVIF in the site")
struct AVIFBuildTests {
    static var images: [String: Any] { ["thumbnail": 64, "preview": 120, "widths": [96]] }

    /// The `type`s of the `<source>`s inside each `<picture>` of a page, in order.
    func sourceTypes(_ html: String) -> [[String]] {
        html.components(separatedBy: "<picture>").dropFirst().map { picture in
            let inside = picture.components(separatedBy: "</picture>")[0]
            return inside.components(separatedBy: #"<source type=""#).dropFirst().map {
                String($0.prefix { $0 != "\"" })
            }
        }
    }

    @Test func pagesOfferAVIFFirstThenWebPThenTheJPEG() async throws {
        let entries: [[String: Any]] = [
            ["id": "one", "title": "One", "image": "photos/photo-1.jpg", "album": "Trips"],
            ["id": "two", "title": "Two", "image": "photos/photo-2.jpg", "album": "Trips"]
        ]
        let site = try FixtureSite.make(
            entries: entries, config: ["images": Self.images.merging(["webp": true, "avif": true]) { $1 }])
        _ = try await site.build()
        let files = site.outputFiles()
        for (name, html) in [
            ("grid", try site.read("index.html")), ("photo page", try site.read("photos/one/index.html")),
            ("albums", try site.read("albums/index.html"))
        ] {
            let pictures = sourceTypes(html)
            #expect(!pictures.isEmpty, "\(name)")
            for types in pictures { #expect(types == ["image/avif", "image/webp"], "\(name): \(types)") }
            #expect(
                html.components(separatedBy: "<picture>").count == html.components(separatedBy: "</picture>").count,
                "\(name)")
            // The JPEG stays the <img>'s own source, for browsers that take neither.
            #expect(html.contains(#".jpg" srcset=""#), "\(name)")
        }
        let page = try site.read("photos/one/index.html")
        let avifSet = try #require(
            page.components(separatedBy: #"<source type="image/avif" srcset=""#).dropFirst().first?
                .prefix { $0 != "\"" })
        #expect(avifSet.contains(".avif ") && !avifSet.contains(".webp") && !avifSet.contains(".jpg"))
        let jpegs = files.filter {
            $0.hasPrefix("photos/one/") && $0.hasSuffix(".jpg") && !$0.hasSuffix("original.jpg")
        }
        let avifs = files.filter { $0.hasPrefix("photos/one/") && $0.hasSuffix(".avif") }
        #expect(!jpegs.isEmpty && avifs.count == jpegs.count)
        #expect(try site.brokenLinks().isEmpty)
    }

    @Test func avifAloneStillWrapsThePictureAndOffWritesNone() async throws {
        let site = try FixtureSite.make(
            entries: [["id": "one", "title": "One", "image": "photos/photo-1.jpg"]],
            config: ["images": Self.images.merging(["avif": true]) { $1 }])
        _ = try await site.build()
        #expect(sourceTypes(try site.read("index.html")) == [["image/avif"]])
        #expect(sourceTypes(try site.read("photos/one/index.html")) == [["image/avif"]])
        let plain = try FixtureSite.make(
            entries: [["id": "one", "title": "One", "image": "photos/photo-1.jpg"]],
            config: ["images": Self.images])
        _ = try await plain.build()
        #expect(!plain.outputFiles().contains { $0.hasSuffix(".avif") })
        #expect(!(try plain.read("index.html")).contains("<picture>"))
    }

    @Test func turningAVIFOnMakesOnlyTheAVIFFilesAndARebuildMakesNone() async throws {
        let site = try FixtureSite.make(
            entries: Array(IncrementalFixtures.five.prefix(3)), config: ["images": Self.images])
        let cold = try await site.build()
        let jpegs = cold.derivatives - 3  // less the three published originals, which get no AVIF twin

        try site.updateConfig(["images": Self.images.merging(["avif": true]) { $1 }])
        let avif = try await site.build()
        #expect(avif.derivativesMade == jpegs)
        #expect(avif.derivativesReused == cold.derivativesMade)
        #expect(site.outputFiles().filter { $0.hasSuffix(".avif") }.count == jpegs)
        #expect(try site.treeHash() == (try await site.cleanBuildHash()))  // the same bytes as a cold build's

        let again = try await site.build()
        #expect(again.derivativesMade == 0)
        #expect(again.derivativesReused == 2 * jpegs + 3)

        // Off again: the AVIF files leave the site, nothing is made.
        try site.updateConfig(["images": Self.images])
        let off = try await site.build()
        #expect(off.derivativesMade == 0)
        #expect(!site.outputFiles().contains { $0.hasSuffix(".avif") })
        #expect(try site.treeHash() == (try await site.cleanBuildHash()))
    }
}
