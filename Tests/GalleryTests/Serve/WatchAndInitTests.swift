import Foundation
import GalleryConfig
import GalleryPipeline
import GalleryRender
import GalleryServe
import Testing

extension LoadSensitive {
    @Suite("serve --watch and init")
    struct WatchAndInitTests {
        /// The first message of `events` that contains `text`, or nil after `seconds`.
        func first(_ events: AsyncStream<String>, containing text: String, within seconds: Double) async -> String? {
            await withTaskGroup(of: String?.self) { group in
                group.addTask {
                    for await message in events where message.contains(text) { return message }
                    return nil
                }
                group.addTask {
                    try? await Task.sleep(for: .seconds(seconds))
                    return nil
                }
                let result = await group.next() ?? nil
                group.cancelAll()
                return result
            }
        }

        @Test func templateChangeRebuildsAndReloadsWithinTwoSeconds() async throws {
            let site = try FixtureSite.make(
                entries: [["id": "one", "title": "One", "image": "photos/photo-1.jpg"]],
                config: ["templates": "templates", "images": ["thumbnail": 64, "preview": 120, "widths": []]])
            let templates = site.folder.appendingPathComponent("templates")
            try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            let server = DevServer(
                configURL: site.configURL, outputOverride: nil, options: .init(watch: true),
                log: { _ in }, warn: { _ in })
            let (config, _) = try await server.build()
            let liveReload = LiveReload()
            let watcher = Task { await SiteWatcher(config: config).run { await server.rebuild(liveReload) } }
            defer { watcher.cancel() }
            try await Task.sleep(for: .milliseconds(300))  // let the watcher take its first snapshot

            // A good change: the page is rebuilt and browsers are told to reload.
            var events = await liveReload.subscribe()
            let grid = String(decoding: DefaultTheme.files["grid.mustache"]!, as: UTF8.self)
            try Data(grid.replacingOccurrences(of: "{{heading}}", with: "{{heading}} (edited)").utf8)
                .write(to: templates.appendingPathComponent("grid.mustache"))
            let started = ContinuousClock.now
            #expect(await first(events, containing: "event: reload", within: 2) != nil)
            #expect(ContinuousClock.now - started < .seconds(2))
            #expect(try site.read("index.html").contains("(edited)</h1>"))

            // A broken template: browsers get the error, and the last good site stays.
            events = await liveReload.subscribe()
            try Data("{{#unclosed}}".utf8).write(to: templates.appendingPathComponent("grid.mustache"))
            let failure = await first(events, containing: "event: build-error", within: 3)
            #expect(
                failure?.contains(
                    "template grid.mustache: section {{#unclosed}} opened at line 1, column 1 is never closed; "
                        + "add {{/unclosed}} where it should end") == true, "\(failure ?? "no event")")
            #expect(try site.read("index.html").contains("(edited)</h1>"))
        }

        @Test func watcherSeesConfigTemplatesAndLocalPhotosButNotTheOutput() throws {
            let site = try FixtureSite.make(config: ["templates": "templates"])
            let config = try SiteConfig.load(from: site.configURL)
            let watcher = SiteWatcher(config: config)
            #expect(watcher.paths.contains(site.configURL.standardizedFileURL))
            #expect(watcher.paths.contains(site.folder.appendingPathComponent("templates").standardizedFileURL))
            // The manifest's folder is the site folder, which also holds the output: that is skipped.
            try FileManager.default.createDirectory(at: site.output, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: site.output.appendingPathComponent("index.html"))
            let stamps = watcher.snapshot()
            #expect(stamps.keys.contains(site.folder.appendingPathComponent("manifest.json").standardizedFileURL.path))
            #expect(!stamps.keys.contains { $0.hasPrefix(site.output.standardizedFileURL.path) })
        }

        @Test func aPortInUseGetsAClearMessage() async throws {
            let site = try FixtureSite.make(
                entries: [["id": "one", "image": "photos/photo-1.jpg"]],
                config: ["images": ["thumbnail": 64, "preview": 120, "widths": []]])
            let socket = try ListeningSocket()
            let server = DevServer(
                configURL: site.configURL, outputOverride: nil, options: .init(port: socket.port),
                log: { _ in }, warn: { _ in })
            do {
                try await server.run()
                Issue.record("serve started on a port that was in use")
            } catch {
                #expect(
                    "\(error)"
                        == "127.0.0.1:\(socket.port) is already in use (is another server running?); try --port \(socket.port + 1)"
                )
            }
        }

        @Test func initWritesAWorkingSiteAndNeverOverwrites() async throws {
            let folder = try Fixtures.temporaryFolder().appendingPathComponent("demo")
            let written = try SiteScaffold.write(into: folder, force: false)
            #expect(written.contains("site-config.json") && written.contains("templates/grid.mustache"))
            // The config names the schema written beside it, for editors; the loader accepts the key.
            let schema = try String(
                contentsOf: folder.appendingPathComponent("site-config.schema.json"), encoding: .utf8)
            #expect(schema.contains("https://json-schema.org/draft/2020-12/schema"))
            #expect(
                try String(contentsOf: folder.appendingPathComponent("site-config.json"), encoding: .utf8)
                    .contains(#""$schema": "./site-config.schema.json""#))
            let config = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"))
            let report = try await Build(config: config).run()
            #expect(report.photosPublished == 0)
            // The note init leaves in photos/ is ignored on purpose, not a skipped photo (`--strict` passes).
            #expect(report.failures.isEmpty && report.warnings.isEmpty)
            #expect(report.ignored.map(\.path) == ["README.txt"] && report.ignoredSummary == "1 notes file")
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("public/index.html").path))
            // Every source example is a valid source block.
            let examples =
                try JSONSerialization.jsonObject(
                    with: Data(contentsOf: folder.appendingPathComponent("source-examples.json"))) as! [String: Any]
            #expect(Set(examples.keys).isSuperset(of: ["folder", "manifest", "flickr", "500px", "parse", "immich"]))

            try Data("{\"title\": \"mine\", \"source\": {\"type\": \"folder\", \"path\": \"photos\"}}".utf8)
                .write(to: folder.appendingPathComponent("site-config.json"))
            let refused = #expect(throws: ScaffoldError.self) { try SiteScaffold.write(into: folder, force: false) }
            #expect(refused?.kind == .filesExist)
            #expect(
                try String(contentsOf: folder.appendingPathComponent("site-config.json"), encoding: .utf8).contains(
                    "mine"))
            _ = try SiteScaffold.write(into: folder, force: true)
            #expect(
                try String(contentsOf: folder.appendingPathComponent("site-config.json"), encoding: .utf8).contains(
                    "My photos"))
        }
    }
}

/// A TCP socket listening on an ephemeral loopback port, closed on deinit.
final class ListeningSocket {
    let descriptor: Int32
    let port: Int

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        descriptor = fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 1) == 0
                    && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
