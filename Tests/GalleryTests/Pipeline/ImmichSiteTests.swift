import Foundation
import GalleryConfig
import GalleryModel
import GalleryPipeline
import Testing

/// A whole site from an Immich server on loopback (responses shaped from OpenAPI version 1.112.1):
/// every asset published with its description, rating and tags, album descriptions on album pages,
/// a clip, a flaky original retried, a broken one reported, and neither the key nor a position in
/// any published file.
@Suite("Site from Immich")
struct ImmichSiteTests {
    typealias T = ImmichProviderTests

    actor Attempts {
        var counts: [String: Int] = [:]
        func next(_ id: String) -> Int {
            counts[id, default: 0] += 1
            return counts[id]!
        }
    }

    @Test func siteHasEveryAssetItsWordsAndNoSecrets() async throws {
        let folder = try Fixtures.temporaryFolder()
        try await VideoBuildTests.ffmpeg(
            [
                "-f", "lavfi", "-i", "testsrc2=size=160x90:rate=25:duration=1", "-c:v", "libx264", "-pix_fmt",
                "yuv420p", "out:clip.mp4"
            ], in: folder)
        let clip = try Data(contentsOf: folder.appendingPathComponent("clip.mp4"))
        let attempts = Attempts()
        let api = T.api { id, _ in
            let attempt = await attempts.next(id)
            switch id {
            case T.asset("4"), T.asset("3"): return .ok(clip, contentType: "video/mp4")
            case T.asset("7") where attempt == 1: return .data(status: 503, body: Data("busy".utf8))
            case T.asset("8"): return .data(status: 500, body: Data(#"{"message":"boom"}"#.utf8))
            default: return try FixtureServer.image(for: id)
            }
        }
        let report = try await FixtureServer.with(api) { base, _ in
            let settings: [String: Any] = [
                "title": "Immich", "sort": "-rating",
                "source": [
                    "type": "immich", "url": base.absoluteString, "apiKeyEnv": "IMMICH_API_KEY",
                    "albums": ["Norway 2024", T.family]
                ],
                "images": ["thumbnail": 64, "preview": 96, "widths": [80]],
                "network": ["retries": 1, "timeoutSeconds": Fixtures.seconds(20)]
            ]
            let file = folder.appendingPathComponent("site-config.json")
            try JSONSerialization.data(withJSONObject: settings).write(to: file)
            let config = try SiteConfig.load(from: file, environment: ["IMMICH_API_KEY": T.key])
            return try await Build(config: config, options: BuildOptions(jobs: 2)).run()
        }
        let counts = await attempts.counts
        // The audio asset and the trashed one are skipped and reported with the broken original.
        #expect(report.photosInManifest == 7)
        #expect(report.photosPublished == 4 && report.clipsPublished == 1)
        // The Live Photo (2) is published with its clip (3) as its motion, downloaded like an original.
        #expect(report.motionsPublished == 1 && counts[T.asset("3")] == 1)
        #expect(report.failures.map(\.id).sorted() == ["5", "6", "8"].map { T.asset(Character($0)) })
        let broken = try #require(report.failures.first { $0.id == T.asset("8") })
        #expect(broken.stage == .fetch && broken.status == 500)
        #expect(counts[T.asset("7")] == 2 && counts[T.asset("8")] == 2)

        let output = folder.appendingPathComponent("public")
        #expect(
            FileManager.default.fileExists(
                atPath: output.appendingPathComponent(SiteLayout.motionFile(id: T.asset("2"))).path))
        func page(_ path: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
        }
        let fjord = try page("photos/\(T.asset("1"))/index.html")
        #expect(fjord.contains("Geirangerfjord at dawn") && !fjord.contains("<script>alert"))
        #expect(fjord.contains("Canon EOS R6"))
        #expect(try page("photos/\(T.asset("7"))/index.html").contains("Grandma"))
        #expect(try page("photos/\(T.asset("4"))/index.html").contains("On deck"))
        for tag in ["fjord", "ferry", "family", "video"] {
            #expect(
                FileManager.default.fileExists(atPath: output.appendingPathComponent("tags/\(tag)/index.html").path))
        }
        // `sort: -rating`: 5 stars, then the 4s, then 3.
        let home = try page("index.html")
        let positions = ["1", "7", "2"].map { home.range(of: "photos/\(T.asset(Character($0)))/")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil } && positions[0]! < positions[1]! && positions[1]! < positions[2]!)

        var texts: [String] = [String(decoding: try report.json(), as: UTF8.self)]
        let walker = FileManager.default.enumerator(atPath: output.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".html") || path.hasSuffix(".json") else { continue }
            texts.append(try page(path))
        }
        #expect(texts.contains { $0.contains("Fjords and <strong>ferries</strong>") })
        #expect(texts.contains { $0.contains("Birthdays &amp; ") && !$0.contains("<b>gatherings</b>") })
        #expect(!texts.contains { $0.contains(T.key) })
        #expect(!texts.contains { $0.contains("62.1008") })
    }
}
