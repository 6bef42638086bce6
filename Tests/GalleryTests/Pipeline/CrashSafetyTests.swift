import Foundation
import GalleryModel
import GalleryOutput
import GalleryPipeline
import GalleryStore
import Testing

/// Builds of a remote manifest that are killed with a real SIGKILL, or run without the network.
extension LoadSensitive {
    @Suite("Crash safety and offline builds", .serialized)
    struct CrashSafetyTests {
        /// What the fixture server serves: a manifest of `count` photos and a delay per image.
        actor Remote {
            var count: Int
            var title: String
            var delay: Double = 0
            /// Answer 503 to everything.
            var down = false

            init(count: Int, title: String) {
                self.count = count
                self.title = title
            }

            func set(count: Int? = nil, title: String? = nil, delay: Double? = nil, down: Bool? = nil) {
                if let down { self.down = down }
                if let count { self.count = count }
                if let title { self.title = title }
                if let delay { self.delay = delay }
            }

            /// The manifest, or an image: `/img/<k>-<i>.jpg` is fixture photo-k.jpg.
            func reply(_ request: FixtureServer.Request) throws -> FixtureServer.Reply {
                if down { return .json(#"{"error":"down for maintenance"}"#, status: 503) }
                if request.path == "/manifest.json" {
                    let entries = (0..<count).map { index -> [String: Any] in
                        ["id": "p\(index)", "title": "\(title) \(index)", "image": "img/\(index % 6 + 1)-\(index).jpg"]
                    }
                    let data = try JSONSerialization.data(withJSONObject: ["photos": entries])
                    return .data(status: 200, contentType: "application/json", body: data)
                }
                let name = request.path.split(separator: "/").last.map(String.init) ?? ""
                guard request.path.hasPrefix("/img/"), let kind = name.split(separator: "-").first,
                    let data = try? Fixtures.data("images/photo-\(kind).jpg")
                else {
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
                "network": ["retries": 0, "timeoutSeconds": Fixtures.seconds(10), "connectionsPerHost": 2]
            ]
            try JSONSerialization.data(withJSONObject: settings).write(
                to: folder.appendingPathComponent("site-config.json"))
            return FixtureSite(folder: folder)
        }

        /// A fixture JPEG made unique by a comment segment, so every photo has its own bytes and its own work.
        static func uniqueJPEG(_ index: Int) throws -> Data {
            Fixtures.unique(try Fixtures.data("images/photo-\(index % 6 + 1).jpg"), "galleryssg test photo \(index)")
        }

        // The killed builds run the real executable in a subprocess; its photos are local files, because
        // a client killed mid-connection can crash the in-process test server (NIOAsyncWriter deinit).
        @Test func buildKilledPartWayThenRebuiltEqualsACleanBuild() async throws {
            let cli = try IncrementalFixtures.cli()
            let count = 60
            let site = try FixtureSite.make(entries: Array(IncrementalFixtures.five.prefix(3)))
            for index in 0..<count {
                try Self.uniqueJPEG(index).write(to: site.folder.appendingPathComponent("photos/unique-\(index).jpg"))
            }
            _ = try await site.build()
            let published = try site.treeHash()

            // A bigger manifest: every photo has its own bytes, so the killed builds are busy encoding.
            try site.writeManifest(
                (0..<count).map { ["id": "u\($0)", "title": "Unique \($0)", "image": "photos/unique-\($0).jpg"] })
            let images = BuildState.imagesFolder(cache: site.cache)
            let initial = site.outputFiles(in: images).count
            var kills = 0
            var swappedBeforeTheKill: [String] = []  // tree hashes of builds killed after they had published
            for (moment, newFiles) in [("the first new cached image", 1), ("\(count) new cached files", count)] {
                let process = Process()
                process.executableURL = cli
                process.arguments = ["build", "--config", site.configURL.path, "--quiet", "--jobs", "2"]
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                try process.run()
                // Polled on this thread, not with Task.sleep: when other tests keep the cooperative pool
                // busy, a sleeping task can wake seconds late, after the build has already published.
                let started = Date()
                while process.isRunning && Date().timeIntervalSince(started) < 60
                    && site.outputFiles(in: images).count - initial < newFiles
                {
                    usleep(2_000)
                }
                let killed = process.isRunning
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                guard killed else { continue }
                #expect(process.terminationReason == .uncaughtSignal, "killed at \(moment)")
                let staging = try FileManager.default.contentsOfDirectory(atPath: site.folder.path).filter {
                    $0.hasPrefix(".public.staging-")
                }
                let tree = try site.treeHash()
                if tree != published && staging.isEmpty {
                    // Killed after the swap (the machine was slow to look): the new site must then be
                    // complete, which the clean build below decides.
                    swappedBeforeTheKill.append(tree)
                    continue
                }
                kills += 1
                // Killed part-way: the previous site is exactly as it was, its staging folder is left
                // behind (none when it was killed before its first file differed from the site's).
                #expect(tree == published, "killed at \(moment)")
                #expect(staging.count <= 1, "\(staging)")
            }
            #expect(kills >= 1, "every build published before it could be killed")

            let rebuilt = try await site.build()
            #expect(rebuilt.photosPublished == count)
            // Only the previous site is kept beside the output, as the next build's starting point.
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.folder.path).filter {
                $0.hasPrefix(".public.")
            }
            #expect(leftovers == [".public.spare"])
            let clean = try await site.cleanBuildHash()
            #expect(try site.treeHash() == clean)
            for tree in swappedBeforeTheKill {
                #expect(tree == clean, "a build killed after publishing left an incomplete site")
            }
        }

        /// Ctrl-C part-way through a build: the build is cancelled, not killed. It exits with status
        /// 130 soon after, the published site is exactly as it was, its staging folder is not left
        /// behind (kept as the spare, the next build's starting point, as after a failed build), and
        /// the next build publishes what a clean build does.
        @Test func interruptedBuildKeepsThePreviousSiteAndLeavesNoStagingFolder() async throws {
            let cli = try IncrementalFixtures.cli()
            let count = 60
            let site = try FixtureSite.make(entries: Array(IncrementalFixtures.five.prefix(3)))
            for index in 0..<count {
                try Self.uniqueJPEG(index).write(to: site.folder.appendingPathComponent("photos/unique-\(index).jpg"))
            }
            _ = try await site.build()
            let published = try site.treeHash()
            try site.writeManifest(
                (0..<count).map { ["id": "u\($0)", "title": "Unique \($0)", "image": "photos/unique-\($0).jpg"] })
            let images = BuildState.imagesFolder(cache: site.cache)
            let initial = site.outputFiles(in: images).count

            let process = Process()
            process.executableURL = cli
            process.arguments = ["build", "--config", site.configURL.path, "--quiet", "--jobs", "2"]
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            // Polled on this thread, as in the test above: the build must still be busy when it is interrupted.
            let started = Date()
            while process.isRunning && Date().timeIntervalSince(started) < 60
                && site.outputFiles(in: images).count == initial
            {
                usleep(2_000)
            }
            let interrupted = process.isRunning
            kill(process.processIdentifier, SIGINT)
            let signalled = Date()
            while process.isRunning && Date().timeIntervalSince(signalled) < 30 { usleep(5_000) }
            let stopping = Date().timeIntervalSince(signalled)
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            try #require(interrupted, "the build finished before it could be interrupted")

            #expect(process.terminationReason == .exit, "ended by a signal, not by its own exit")
            #expect(process.terminationStatus == 130, "\(stderr)")
            #expect(stderr.contains("interrupted"), "\(stderr)")
            #expect(stopping < 20, "the interrupted build took \(stopping) s to stop")
            #expect(try site.treeHash() == published)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.folder.path).filter {
                $0.hasPrefix(".public.")
            }
            #expect(!leftovers.contains { $0.hasPrefix(".public.staging-") }, "\(leftovers)")
            #expect(leftovers.allSatisfy { $0 == ".public.spare" }, "\(leftovers)")

            let rebuilt = try await site.build()  // the lock was released, the state is usable
            #expect(rebuilt.photosPublished == count)
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: site.folder.path).filter {
                    $0.hasPrefix(".public.")
                } == [".public.spare"])
            let clean = try await site.cleanBuildHash()
            #expect(try site.treeHash() == clean)
        }

        // The server stays up but answers 503 to everything: the test never connects to a server that
        // is shutting down, which can crash the in-process server (NIOAsyncWriter deinit).
        @Test func offlineBuildsFromTheStateAndTheCachedOriginals() async throws {
            let remote = Remote(count: 7, title: "Photo")
            try await FixtureServer.with({ request, _ in try await remote.reply(request) }) { base, log in
                let site = try Self.site(base)
                let first = try await site.build()
                #expect(first.photosPublished == 7)
                let hash = try site.treeHash()

                // A site that never built online has nothing to build offline from.
                do {
                    _ = try await Self.site(base).build(BuildOptions(jobs: 2, offline: true))
                    Issue.record("expected the offline build without a state to fail")
                } catch let error as BuildError {
                    #expect(error.reason.contains("holds no manifest of manifest http://127.0.0.1:"), "\(error.reason)")
                }
                #expect(await log.requests.count == 1 + 7)

                // The remote is down: an online build fails and suggests --offline.
                await remote.set(down: true)
                do {
                    _ = try await site.build()
                    Issue.record("expected the manifest step to fail")
                } catch let error as BuildError {
                    #expect(error.step == .manifest)
                    #expect(error.reason.contains("HTTP 503"), "\(error.reason)")
                    #expect(error.reason.contains("run galleryssg build --offline"), "\(error.reason)")
                }
                #expect(try site.treeHash() == hash)
                let online = await log.requests.count

                let offline = try await site.build(BuildOptions(jobs: 2, offline: true))
                #expect(offline.photosUnchanged == 7 && offline.derivativesMade == 0 && offline.offline)
                #expect(offline.downloads.requests == 0)
                #expect(try site.treeHash() == hash)

                // New settings offline: derivatives are made again from the cached downloads.
                try site.updateConfig(["images": ["thumbnail": 64, "preview": 120, "widths": [80], "quality": 50]])
                let remade = try await site.build(BuildOptions(jobs: 2, offline: true))
                #expect(remade.failures == [])
                // p0 and p6 have the same bytes, so p6 reuses what p0 made.
                #expect(
                    remade.derivativesMade > 0
                        && remade.derivativesMade + remade.derivativesReused == remade.derivatives)
                #expect(remade.downloads.requests == 0)
                #expect((6...7).contains(remade.downloads.reusedOffline))
                #expect(await log.requests.count == online, "an offline build sent a request")
            }
        }
    }
}
