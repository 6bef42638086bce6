import Foundation
import Testing
@testable import GalleryCore

/// Builds of a remote manifest that are killed with a real SIGKILL, or run without the network.
@Suite("Crash safety and offline builds")
struct CrashSafetyTests {
    /// What the fixture server serves: a manifest of `count` photos and a delay per image.
    actor Remote {
        var count: Int
        var title: String
        var delay: Double = 0

        init(count: Int, title: String) {
            self.count = count
            self.title = title
        }

        func set(count: Int? = nil, title: String? = nil, delay: Double? = nil) {
            if let count { self.count = count }
            if let title { self.title = title }
            if let delay { self.delay = delay }
        }

        /// The manifest, or an image: `/img/<k>-<i>.jpg` is fixture photo-k.jpg.
        func reply(_ request: FixtureServer.Request) -> FixtureServer.Reply {
            if request.path == "/manifest.json" {
                let entries = (0..<count).map { index -> [String: Any] in
                    ["id": "p\(index)", "title": "\(title) \(index)", "image": "img/\(index % 6 + 1)-\(index).jpg"]
                }
                let data = try! JSONSerialization.data(withJSONObject: ["photos": entries])
                return .data(status: 200, contentType: "application/json", body: data)
            }
            let name = request.path.split(separator: "/").last.map(String.init) ?? ""
            guard request.path.hasPrefix("/img/"), let kind = name.split(separator: "-").first,
                  let data = try? Fixtures.data("images/photo-\(kind).jpg") else {
                return .data(status: 404, body: Data("no such image".utf8))
            }
            let image = FixtureServer.Reply.ok(data, contentType: "image/jpeg")
            return delay > 0 ? .delayed(seconds: delay, image) : image
        }
    }

    /// A site whose source is the fixture server's manifest.
    static func site(_ base: URL, folder: URL? = nil) throws -> FixtureSite {
        let folder = try folder ?? Fixtures.temporaryFolder()
        let settings: [String: Any] = [
            "title": "Remote", "pageSize": 5,
            "source": ["type": "manifest", "url": base.appendingPathComponent("manifest.json").absoluteString],
            "images": ["thumbnail": 64, "preview": 120, "widths": [80]],
            "network": ["retries": 0, "timeoutSeconds": 10, "connectionsPerHost": 2],
        ]
        try JSONSerialization.data(withJSONObject: settings).write(to: folder.appendingPathComponent("site-config.json"))
        return FixtureSite(folder: folder)
    }

    @Test func buildKilledPartWayThenRebuiltEqualsACleanBuild() async throws {
        let cli = try IncrementalFixtures.cli()
        let remote = Remote(count: 8, title: "First")
        try await FixtureServer.with({ request, _ in await remote.reply(request) }) { base, _ in
            let site = try Self.site(base)
            _ = try await site.build()
            let published = try site.treeHash()

            // A bigger manifest with new titles, served slowly, so the build is still busy when killed.
            await remote.set(count: 40, title: "Second", delay: 0.1)
            // The new photos' bytes are already cached from the first build, so the killed builds
            // are busy downloading: the first moment is when a new download lands in the cache.
            let downloads = BuildState.originalsFolder(in: site.state)
            let initial = Set(site.outputFiles(in: downloads))
            for moment in ["first new download", "0.8 s"] {
                let process = Process()
                process.executableURL = cli
                process.arguments = ["build", "--config", site.configURL.path, "--quiet"]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                let started = Date()
                while process.isRunning && Date().timeIntervalSince(started) < 20 {
                    if moment.hasPrefix("first") ? Set(site.outputFiles(in: downloads)) != initial : Date().timeIntervalSince(started) > 0.8 {
                        break
                    }
                    try await Task.sleep(nanoseconds: 10_000_000)
                }
                let killed = process.isRunning
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                if killed {
                    #expect(process.terminationReason == .uncaughtSignal, "killed at \(moment)")
                    // Killed part-way: the previous site is exactly as it was.
                    #expect(try site.treeHash() == published, "killed at \(moment)")
                    let staging = try FileManager.default.contentsOfDirectory(atPath: site.folder.path).filter { $0.hasPrefix(".public.staging-") }
                    #expect(staging.count == 1, "a killed build leaves its staging folder until the next build: \(staging)")
                } else {
                    Issue.record("the build finished before it could be killed at \(moment)")
                }
            }

            await remote.set(delay: 0)
            let rebuilt = try await site.build()
            #expect(rebuilt.photosPublished == 40)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.folder.path).filter { $0.hasPrefix(".public.") }
            #expect(leftovers == [])
            let twin = try Self.site(base)
            _ = try await twin.build()
            #expect(try site.treeHash() == (try twin.treeHash()))
        }
    }

    @Test func offlineBuildsFromTheStateAndTheCachedOriginals() async throws {
        let remote = Remote(count: 7, title: "Photo")
        let (site, hash, offlineWithoutState) = try await FixtureServer.with({ request, _ in await remote.reply(request) }) { base, log in
            let site = try Self.site(base)
            let first = try await site.build()
            #expect(first.photosPublished == 7)
            // A site that never built online has nothing to build offline from.
            let empty = try Self.site(base)
            var message = ""
            do {
                _ = try await empty.build(BuildOptions(jobs: 2, offline: true))
            } catch let error as BuildError {
                message = error.reason
            }
            #expect(await log.requests.count == 1 + 7)
            return (site, try site.treeHash(), message)
        }
        #expect(offlineWithoutState.contains("holds no manifest of manifest http://127.0.0.1:"), "\(offlineWithoutState)")

        // The server is gone: an online build fails and suggests --offline.
        do {
            _ = try await site.build()
            Issue.record("expected the manifest step to fail")
        } catch let error as BuildError {
            #expect(error.step == "manifest")
            #expect(error.reason.contains("run galleryssg build --offline"), "\(error.reason)")
        }
        #expect(try site.treeHash() == hash)

        let offline = try await site.build(BuildOptions(jobs: 2, offline: true))
        #expect(offline.photosUnchanged == 7 && offline.derivativesMade == 0 && offline.offline)
        #expect(offline.downloads.requests == 0)
        #expect(try site.treeHash() == hash)

        // New settings offline: derivatives are made again from the cached downloads.
        try site.updateConfig(["images": ["thumbnail": 64, "preview": 120, "widths": [80], "quality": 50]])
        let remade = try await site.build(BuildOptions(jobs: 2, offline: true))
        #expect(remade.failures == [])
        #expect(remade.derivativesMade == remade.derivatives)
        #expect(remade.downloads.requests == 0)
        #expect(remade.downloads.reusedOffline == 7)
    }
}
