import Crypto
import Foundation
import GalleryConfig
import GalleryPipeline
import GalleryStore

extension FixtureSite {
    var state: URL { folder.appendingPathComponent(".galleryssg") }
    /// The cache folder when the config names none.
    var cache: URL { state.appendingPathComponent("cache") }

    /// SHA-256 over every file of the output: its relative path and its bytes, in path order.
    func treeHash() throws -> String {
        try Self.treeHash(of: output)
    }

    static func treeHash(of folder: URL) throws -> String {
        var hasher = SHA256()
        let site = FixtureSite(folder: folder.deletingLastPathComponent())
        for path in site.outputFiles(in: folder) {
            hasher.update(data: Data(path.utf8))
            hasher.update(data: Data([0]))
            hasher.update(data: try Data(contentsOf: folder.appendingPathComponent(path)))
            hasher.update(data: Data([0]))
        }
        return hasher.finalize().map { String(format: "%02x", $0) }.joined()
    }

    /// Replaces the manifest's entries.
    func writeManifest(_ entries: [[String: Any]]) throws {
        try JSONSerialization.data(withJSONObject: ["photos": entries], options: [.prettyPrinted])
            .write(to: folder.appendingPathComponent("manifest.json"))
    }

    /// Changes top-level keys of the config.
    func updateConfig(_ changes: [String: Any]) throws {
        var settings = try JSONSerialization.jsonObject(with: Data(contentsOf: configURL)) as? [String: Any] ?? [:]
        settings.merge(changes) { _, new in new }
        try JSONSerialization.data(withJSONObject: settings).write(to: configURL)
    }

    func build(_ options: BuildOptions) async throws -> BuildReport {
        try await Build(config: try SiteConfig.load(from: configURL, environment: [:]), options: options).run()
    }

    /// The state's rows for this site's manifest source.
    func stateSnapshot() throws -> StateSnapshot {
        let config = try SiteConfig.load(from: configURL, environment: [:])
        return try StateDatabase.open(folder: config.stateDirectory).snapshot(
            source: "manifest \(folder.appendingPathComponent("manifest.json").standardizedFileURL.path)")
    }

    /// A fresh site with the same photos, config and manifest, built from scratch: what every
    /// incremental build must equal.
    func cleanBuildHash() async throws -> String {
        let twin = try Fixtures.temporaryFolder()
        for name in ["photos", "manifest.json", "site-config.json", "Templates"]
        where FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) {
            try FileManager.default.copyItem(
                at: folder.appendingPathComponent(name), to: twin.appendingPathComponent(name))
        }
        let site = FixtureSite(folder: twin)
        _ = try await site.build()
        return try site.treeHash()
    }
}

/// Good photos only, so counts are easy to follow.
enum IncrementalFixtures {
    static var five: [[String: Any]] {
        [
            ["id": "one", "title": "One", "image": "photos/photo-1.jpg"],
            ["id": "two", "title": "Two", "image": "photos/photo-2.jpg"],
            ["id": "three", "title": "Three", "image": "photos/photo-3.jpg"],
            ["id": "four", "title": "Four", "image": "photos/photo-4.jpg"],
            ["id": "five", "title": "Five", "image": "photos/photo-5.jpg"]
        ]
    }

    /// The `galleryssg` executable that `swift build` put beside the test bundle.
    static func cli() throws -> URL {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [
            bundle.appendingPathComponent("galleryssg"),
            Fixtures.repository.appendingPathComponent(".build/debug/galleryssg")
        ]
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CLIMissing(
                description: "galleryssg executable not found in \(candidates.map(\.path)); run swift build first")
        }
        return found
    }

    /// Runs the built `galleryssg` to its end and returns its exit status and stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = try cli()
        process.arguments = arguments
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    struct CLIMissing: Error, CustomStringConvertible {
        var description: String
    }
}
