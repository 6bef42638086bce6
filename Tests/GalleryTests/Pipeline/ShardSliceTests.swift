import Foundation
import GalleryModel
import GalleryOutput
import GalleryPipeline
import GalleryStore
import Testing

/// How photos are cut into slices, and how a learnt file's locations travel between machines.
@Suite struct ShardSliceTests {
    @Test func shardsAreReadAsKOfN() throws {
        #expect(try Shard(parsing: "2/4") == Shard(2, of: 4))
        #expect(try Shard(parsing: "1/1") == .all)
        #expect(try Shard(parsing: "4/4").description == "4/4")
        let bad: [(text: String, kind: ShardError.Kind)] = [
            ("0/4", .indexOutOfRange), ("5/4", .indexOutOfRange), ("-1/4", .indexOutOfRange),
            ("1/0", .countOutOfRange), ("1/10001", .countOutOfRange),
            ("2", .notKOfN), ("2/4/8", .notKOfN), ("a/b", .notKOfN), ("", .notKOfN), ("/", .notKOfN)
        ]
        for (text, kind) in bad {
            let error = #expect(throws: ShardError.self, "\(text)") { try Shard(parsing: text) }
            #expect(error?.kind == kind, "\(text)")
        }
    }

    /// Every location is in exactly one slice of N, whatever N, and the slices are about even.
    @Test func everyPhotoIsInExactlyOneSlice() throws {
        let keys = (0..<400).map { "photos/2024/IMG_\($0).jpg" } + (0..<100).map { "https://photos.example/\($0).jpg" }
        for count in 1...8 {
            let shards = try (1...count).map { try Shard($0, of: count) }
            var sizes = Array(repeating: 0, count: count)
            for key in keys {
                let owners = shards.filter { $0.contains(locationKey: key) }
                #expect(owners.count == 1, "\(key) in \(owners) of \(count)")
                sizes[owners[0].index - 1] += 1
            }
            let even = keys.count / count
            #expect(sizes.allSatisfy { abs($0 - even) < even / 3 + 10 }, "\(sizes)")
        }
    }

    /// A local original's location is relative to the source, so a learnt file written on one
    /// machine names the same file on another that checked the site out elsewhere.
    @Test func locationsAreRelativeToTheSource() {
        let here = SourceRoot(.manifestFile(URL(fileURLWithPath: "/runner/site/manifest.json")))
        let there = SourceRoot(.folder(URL(fileURLWithPath: "/mnt/checkout/site")))
        #expect(here.key("/runner/site/photos/a b.jpg") == "photos/a b.jpg")
        #expect(there.location("photos/a b.jpg") == "/mnt/checkout/site/photos/a b.jpg")
        #expect(
            here.key("/elsewhere/x.jpg") == "/elsewhere/x.jpg"
                && there.location("/elsewhere/x.jpg") == "/elsewhere/x.jpg")
        #expect(here.key("/runner/site-2/x.jpg") == "/runner/site-2/x.jpg")
        let remote = SourceRoot(.manifestURL(URL(string: "https://example.com/manifest.json")!))
        #expect(remote.key("https://example.com/a.jpg") == "https://example.com/a.jpg")
        #expect(there.location("https://example.com/a.jpg") == "https://example.com/a.jpg")
    }

    /// An entry the manifest cannot use is reported by an images-only build as by a plain one.
    @Test func anImagesOnlyBuildReportsTheManifestsBadEntries() async throws {
        let site = try FixtureSite.make(
            entries: IncrementalFixtures.five + [["id": "outside", "image": "../../etc/passwd"]])
        let report = try await site.build(BuildOptions(jobs: 2, imagesOnly: try Shard(1, of: 2)))
        #expect(
            report.failures.map(\.id) == ["outside"] && report.failures.first?.stage == .manifest, "\(report.failures)")
        #expect(report.photosInManifest == 6 && report.photosSkipped == 1)
    }

    /// Shards download the originals of a remote manifest; the final build, on another machine
    /// with a fresh state, downloads none of them again and publishes what a single build does.
    @Test func aBuildAfterShardsDownloadsNoOriginal() async throws {
        let entries = (0..<10).map { ["id": "r\($0)", "title": "Remote \($0)", "image": "/img/r\($0).jpg"] }
        let manifest = try JSONSerialization.data(withJSONObject: ["photos": entries])
        let handler: @Sendable (FixtureServer.Request, URL) async -> FixtureServer.Reply = { request, _ in
            if request.path == "/manifest.json" { return .data(contentType: "application/json", body: manifest) }
            guard request.path.hasPrefix("/img/r"), let number = Int(request.path.dropFirst(6).dropLast(4)) else {
                return .data(status: 404, body: Data("no such fixture".utf8))
            }
            let photo = (try? Fixtures.data("images/photo-\(number % 6 + 1).jpg")) ?? Data()
            return .ok(Fixtures.unique(photo, request.path), contentType: "image/jpeg")
        }
        let cache = try Fixtures.temporaryFolder()
        try await FixtureServer.with(handler) { base, log in
            func site(cache: URL?) throws -> FixtureSite {
                let folder = try Fixtures.temporaryFolder()
                var settings: [String: Any] = [
                    "title": "Remote", "pageSize": 4, "source": ["type": "manifest", "url": "\(base)/manifest.json"],
                    "images": ["thumbnail": 64, "preview": 120, "widths": [80]]
                ]
                if let cache { settings["cache"] = cache.path }
                try JSONSerialization.data(withJSONObject: settings).write(
                    to: folder.appendingPathComponent("site-config.json"))
                return FixtureSite(folder: folder)
            }
            let single = try site(cache: nil)
            _ = try await single.build()
            let machines = try site(cache: cache)
            for index in 1...4 {
                let report = try await machines.build(BuildOptions(jobs: 2, imagesOnly: try Shard(index, of: 4)))
                #expect(report.failures.isEmpty, "\(report.failures)")
            }
            let downloads = await log.count { $0.path.hasPrefix("/img/") }
            #expect(downloads == 2 * entries.count, "one download per photo by the single build and one by its shard")

            let final = try site(cache: cache)
            let report = try await final.build()
            #expect(await log.count { $0.path.hasPrefix("/img/") } == downloads, "the final build downloaded originals")
            #expect(report.derivativesMade == 0 && report.photosPublished == entries.count, "\(report.summary)")
            #expect(try final.treeHash() == single.treeHash())
        }
    }
}
