import Foundation
import GalleryConfig
import GalleryPipeline
import GalleryProviders
import Testing

/// A folder source accounts for every file of a photographer's library: each one is a photo, a
/// sidecar or album index it read, a file it ignored on purpose, or a file it rejected with a reason.
@Suite struct FolderSourceTests {
    /// A small library in the shape photographers keep: nested dated folders, links, clutter.
    static func makeLibrary() throws -> URL {
        let root = try Fixtures.temporaryFolder().appendingPathComponent("Photos")
        let files = FileManager.default
        let jpeg = try Fixtures.data("images/photo-1.jpg")
        func write(_ path: String, _ data: Data) throws {
            let url = root.appendingPathComponent(path)
            try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try data.write(to: url)
        }
        func link(_ path: String, to target: String) throws {
            let url = root.appendingPathComponent(path)
            try files.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try files.createSymbolicLink(atPath: url.path, withDestinationPath: target)
        }
        try write("2024/Iceland/Day 1/IMG_1001.jpg", jpeg)
        try write("2024/Iceland/Day 1/IMG_1001.md", Data("---\ntitle: Harbour\n---\nMorning.\n".utf8))
        try write("2024/Iceland/Day 1/IMG_1002.JPG", jpeg)
        try write("2024/Iceland/Day 1/IMG_1002.JPG.xmp", Data("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>".utf8))
        try write("2024/Iceland/index.md", Data("---\ntitle: Iceland\n---\n".utf8))
        try write("2025/Family/kids.png", try Fixtures.data("images/half-transparent.png"))
        try write("2025/Family/.DS_Store", Data([0]))
        try write("2025/Family/._kids.png", Data([0]))
        try write("2025/Family/Thumbs.db", Data([0]))
        try write("2025/Family/.secret.jpg", jpeg)
        try write("2025/Family/orphan.xmp", Data("<x/>".utf8))
        try write("2025/Family/DSC_0001.NEF", Data([0]))
        try write("2025/Family/clip.MOV", Data([0]))
        try write("2025/Family/notes.txt", Data("hi".utf8))
        try write("2025/Family/README", Data("hi".utf8))
        try write(".trash/old.jpg", jpeg)
        try write("@eaDir/IMG_1001.jpg/SYNOPHOTO_THUMB_M.jpg", jpeg)
        try link("Portfolio/best.jpg", to: "../2024/Iceland/Day 1/IMG_1001.jpg")
        try link("Portfolio/passwd.jpg", to: "/etc/passwd")
        try link("Portfolio/gone.jpg", to: "nowhere.jpg")
        try link("Again", to: "2025")
        try link("2025/Family/loop", to: "../..")
        return root
    }

    @Test func everyFileIsPublishedIgnoredOrReported() async throws {
        let root = try Self.makeLibrary()
        let manifest = try await FolderProvider(folder: root).fetchManifest()

        let photos = manifest.photos.map { $0.image.description.replacingOccurrences(of: root.path + "/", with: "") }
        // A raw without a photo of its name beside it is a photo (read by LibRaw when the build gets to
        // it), and a clip is an item like a photo (probed by ffprobe then).
        #expect(
            photos == [
                "2024/Iceland/Day 1/IMG_1001.jpg", "2024/Iceland/Day 1/IMG_1002.JPG",
                "2025/Family/DSC_0001.NEF", "2025/Family/clip.MOV", "2025/Family/kids.png", "Portfolio/best.jpg"
            ])
        #expect(
            manifest.photos.map(\.album) == [
                "2024/Iceland/Day 1", "2024/Iceland/Day 1", "2025/Family", "2025/Family", "2025/Family",
                "Portfolio"
            ])
        #expect(
            manifest.photos.map(\.id) == [
                "2024-iceland-day-1-img-1001", "2024-iceland-day-1-img-1002",
                "2025-family-dsc-0001", "2025-family-clip", "2025-family-kids", "portfolio-best"
            ])
        #expect(manifest.photos[0].fallbackTitle == "IMG 1001")

        let rejected = Dictionary(manifest.issues.map { ($0.item, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(rejected["Portfolio/passwd.jpg"]?.contains("outside the source folder") == true)
        #expect(rejected["Portfolio/gone.jpg"]?.contains("broken symlink") == true)
        #expect(rejected["2025/Family/notes.txt"]?.contains("unsupported format: .txt") == true)
        #expect(rejected["2025/Family/README"]?.contains("without an extension") == true)
        #expect(manifest.issues.allSatisfy { $0.location?.hasPrefix(root.path + "/") == true })

        let ignored = Dictionary(manifest.ignored.map { ($0.path, $0.reason) }, uniquingKeysWith: { first, _ in first })
        #expect(ignored["2025/Family/.DS_Store"] == .systemFile)
        #expect(ignored["2025/Family/._kids.png"] == .systemFile)
        #expect(ignored["2025/Family/Thumbs.db"] == .systemFile)
        #expect(ignored["2025/Family/.secret.jpg"] == .hiddenFile)
        #expect(ignored[".trash/"] == .hiddenFolder)
        #expect(ignored["@eaDir/"] == .otherToolsFolder)
        #expect(ignored["2025/Family/orphan.xmp"] == .sidecarWithoutPhoto)
        #expect(ignored["2024/Iceland/Day 1/IMG_1001.md"] == .sidecarRead)
        #expect(ignored["2024/Iceland/Day 1/IMG_1002.JPG.xmp"] == .sidecarRead)
        #expect(ignored["2024/Iceland/index.md"] == .albumIndexRead)
        #expect(ignored["Again/"]?.tally == .folderLinkedTwice)
        #expect(ignored["2025/Family/loop/"]?.tally == .folderLinkedTwice)

        // Every entry on disk below the root is named exactly once, as a photo, a rejection or an ignored file.
        let named = Set(photos + manifest.issues.map(\.item) + manifest.ignored.map(\.path))
        #expect(named.count == photos.count + manifest.issues.count + manifest.ignored.count)
        for entry in try Self.entriesOnDisk(root) {
            #expect(
                named.contains(entry) || named.contains(entry + "/")
                    || named.contains { $0.hasSuffix("/") && entry.hasPrefix($0) }, "\(entry) is unaccounted for")
        }
    }

    /// A `source.path` that names nothing, or a file, is the source's own fault, told apart by kind.
    @Test func aMissingSourceFolderIsNotFound() async throws {
        let folder = try Fixtures.temporaryFolder()
        let file = folder.appendingPathComponent("a.jpg")
        try Data("x".utf8).write(to: file)
        for path in [folder.appendingPathComponent("none"), file] {
            let error = await #expect(throws: ProviderError.self) {
                _ = try await FolderProvider(folder: path).fetchManifest()
            }
            #expect(error?.kind == .notFound, "\(String(describing: error))")
        }
    }

    @Test func ignoredAndRejectedFilesAreCountedInTheReport() async throws {
        let root = try Self.makeLibrary()
        let site = try Fixtures.temporaryFolder()
        let config: [String: Any] = [
            "title": "Library", "source": ["type": "folder", "path": root.path],
            "images": ["thumbnail": 64, "preview": 96, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: site.appendingPathComponent("site-config.json"))
        let report = try await Build(
            config: try SiteConfig.load(from: site.appendingPathComponent("site-config.json"), environment: [:]),
            options: BuildOptions(jobs: 2)
        ).run()
        #expect(report.photosPublished == 4)
        #expect(report.photosSkipped == 6)
        #expect(report.ignored.count == 12)
        #expect(report.summary.contains("2 skipped, 4 other files not published, 12 ignored"), "\(report.summary)")
        #expect(report.ignoredSummary.contains("3 system files"))
        #expect(report.failures.contains { $0.id == "Portfolio/passwd.jpg" && $0.stage == .manifest })
    }

    /// Files, links and folders below `root`, relative, without descending into links.
    static func entriesOnDisk(_ root: URL) throws -> [String] {
        var result: [String] = []
        func walk(_ relative: String) throws {
            let folder = relative.isEmpty ? root.path : root.path + "/" + relative
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
                let path = relative.isEmpty ? name : relative + "/" + name
                let attributes = try FileManager.default.attributesOfItem(atPath: root.path + "/" + path)
                if attributes[.type] as? FileAttributeType == .typeDirectory {
                    try walk(path)
                } else {
                    result.append(path)
                }
            }
        }
        try walk("")
        return result
    }
}
