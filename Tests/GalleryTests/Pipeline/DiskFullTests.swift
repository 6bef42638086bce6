import Foundation
import GalleryPipeline
import Testing

/// A full disk stops the build at the first write that cannot be made, with one message, not one
/// warning per photo. The disk is real: the built `galleryssg` runs in a mount namespace of its own
/// (`unshare --mount`, with a user namespace where the test is not root) with a small tmpfs over
/// the site's cache, so the mount is gone when the process ends, however it ends, and no other
/// process ever sees it.
extension LoadSensitive {
    @Suite("A full disk", .serialized)
    struct DiskFullTests {
        /// `unshare`'s options: a user namespace mapping the caller to root where it is not root,
        /// which lets an unprivileged user mount a tmpfs in the mount namespace it owns.
        static let namespaces = getuid() == 0 ? ["--mount"] : ["--user", "--map-root-user", "--mount"]

        /// The command that runs `arguments` with a tmpfs of `size` mounted on `folder`.
        static func onSmallDisk(_ folder: URL, size: String, _ arguments: [String]) -> [String] {
            namespaces + ["sh", "-c", #"mount -t tmpfs -o size=$1 tmpfs "$2" && shift 2 && exec "$@""#, "sh", size]
                + [folder.path] + arguments
        }

        static func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            process.arguments = arguments
            let errors = Pipe()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = errors
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }

        /// Why no small disk can be made here, or nil when one can.
        static let unavailable: String? = {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
                return "needs util-linux's unshare"
            }
            guard let folder = try? Fixtures.temporaryFolder(),
                let probe = try? run(onSmallDisk(folder, size: "64k", ["true"]))
            else { return "unshare could not be run" }
            return probe.status == 0
                ? nil
                : "mounting a tmpfs in a mount namespace of its own is not permitted here: \(probe.errors)"
        }()

        @Test(.enabled(if: unavailable == nil, "\(unavailable ?? "")"))
        func aFullDiskStopsTheBuildWithOneMessageAndKeepsTheSite() async throws {
            let count = 30
            let site = try FixtureSite.make(entries: [])
            func manifest(_ first: Int) throws {
                for index in first..<first + count {
                    try CrashSafetyTests.uniqueJPEG(index).write(
                        to: site.folder.appendingPathComponent("photos/unique-\(index).jpg"))
                }
                try site.writeManifest(
                    (first..<first + count).map {
                        ["id": "u\($0)", "title": "Unique \($0)", "image": "photos/unique-\($0).jpg"]
                    })
            }
            try manifest(0)
            _ = try await site.build()
            let published = try site.treeHash()

            // Thirty new photos, whose images go to a cache on a disk with room for a few of them.
            try manifest(100)
            let build = try [IncrementalFixtures.cli().path, "build", "--config", site.configURL.path, "--jobs", "2"]
            let full = try Self.run(Self.onSmallDisk(site.cache, size: "64k", build))
            #expect(full.status == 1, "\(full.errors)")
            let lines = full.errors.split(separator: "\n")
            let diskFull = lines.filter { $0.contains("the disk is full") }
            #expect(diskFull.count == 1, "\(full.errors)")
            #expect(diskFull.first?.hasPrefix("error: build failed at ") == true, "\(full.errors)")
            #expect(diskFull.first?.contains("no space left in \(site.cache.path))") == true, "\(full.errors)")
            #expect(diskFull.first?.contains("free some space there") == true)
            #expect(!lines.contains { $0.hasPrefix("warning: skipped") }, "\(full.errors)")
            #expect(full.errors.contains("previous site"), "\(full.errors)")
            #expect(try site.treeHash() == published)

            // With room, the same build publishes them all.
            let roomy = try Self.run(Self.onSmallDisk(site.cache, size: "64m", build))
            #expect(roomy.status == 0, "\(roomy.errors)")
        }
    }
}
