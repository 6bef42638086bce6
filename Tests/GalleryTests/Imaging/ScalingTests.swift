import Foundation
import GalleryPipeline
import Testing

/// The images step keeps `--jobs` photos in flight when memory allows, and no more decoded pixels
/// than its budget; the budget comes from the memory the machine (or its container) has.
@Suite struct PixelBudgetTests {
    @Test func automaticBudgetFollowsMemory() {
        #expect(PixelBudget.automatic(jobs: 16, availableBytes: nil) == PixelBudget.floor)
        // 1 GiB: half of it at 4 bytes a pixel.
        #expect(PixelBudget.automatic(jobs: 2, availableBytes: 1 << 30) == (1 << 30) / 2 / 4)
        // A small machine still gets the floor.
        #expect(PixelBudget.automatic(jobs: 2, availableBytes: 64 << 20) == PixelBudget.floor)
        // With 8 GiB available, 16 jobs of 50 MP always fit, whatever the per-pixel estimate says.
        #expect(PixelBudget.automatic(jobs: 16, availableBytes: 8 << 30) >= 16 * 50_000_000)
        #expect(
            PixelBudget.automatic(jobs: 64, availableBytes: 8 << 30) >= 64 * 50_000_000
                || PixelBudget.automatic(jobs: 64, availableBytes: 8 << 30) == PixelBudget.ceiling)
        #expect(PixelBudget.automatic(jobs: 4, availableBytes: 1 << 50) == PixelBudget.ceiling)
    }

    @Test func availableMemoryIsCappedByTheContainersLimit() throws {
        let root = try Fixtures.temporaryFolder()
        func write(_ path: String, _ text: String) throws {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        try write(
            "proc/meminfo", "MemTotal:       32000000 kB\nMemFree:        1000000 kB\nMemAvailable:   20000000 kB\n")
        #expect(PixelBudget.availableBytes(root: root.path) == 20_000_000 * 1024)
        try write("sys/fs/cgroup/memory.max", "max\n")
        #expect(PixelBudget.availableBytes(root: root.path) == 20_000_000 * 1024)
        try write("sys/fs/cgroup/memory.max", "4294967296\n")
        try write("sys/fs/cgroup/memory.current", "1073741824\n")
        #expect(PixelBudget.availableBytes(root: root.path) == 3 << 30)
        #expect(PixelBudget.availableBytes(root: root.appendingPathComponent("nowhere").path) == nil)
    }
}

extension LoadSensitive {
    @Suite struct ParallelJobs {
        /// A site of `count` distinct 2048 × 1280 photos (a sample photo, each with its own comment
        /// segment), each decoded at full size for a 1600 px preview, which is all of it that is held:
        /// it is resampled as it decodes (`ImageProcessor.streamLargest`).
        static func site(count: Int, images: [String: Any] = [:]) throws -> FixtureSite {
            let photo = try Data(contentsOf: Fixtures.repository.appendingPathComponent("Samples/photos/Kite.jpg"))
            var entries: [[String: Any]] = []
            var settings: [String: Any] = ["thumbnail": 200, "preview": 1600, "widths": [Int]()]
            settings.merge(images) { _, new in new }
            let site = try FixtureSite.make(entries: [], config: ["images": settings])
            for index in 0..<count {
                try Fixtures.unique(photo, "galleryssg scaling test \(index)")
                    .write(to: site.folder.appendingPathComponent("photos/kite-\(index).jpg"))
                entries.append(["id": "kite-\(index)", "image": "photos/kite-\(index).jpg"])
            }
            try site.writeManifest(entries)
            return site
        }

        /// `-j 8` runs 8 photos at once, even on a machine with fewer cores: jobs run on threads of
        /// their own, not on Swift's per-core cooperative pool.
        @Test func eightJobsRunAtOnce() async throws {
            let report = try await Self.site(count: 16).build(BuildOptions(jobs: 8))
            #expect(report.photosPublished == 16)
            #expect(report.peakJobs == 8, "peak \(report.peakJobs) of 8 jobs")
            #expect(report.pixelBudget >= 8 * 2048 * 1280)
            #expect(report.peakPixelsInFlight == 8 * 1600 * 1000)
        }

        /// The budget counts the pixels each job really holds: photos whose 1.6 MP preview is made as
        /// they decode, under a 3 MP budget, run one at a time however many jobs are allowed.
        @Test func pixelBudgetBoundsWhatRunsAtOnce() async throws {
            let site = try Self.site(count: 6, images: ["maxPixelsInFlight": 3_000_000])
            let report = try await site.build(BuildOptions(jobs: 8))
            #expect(report.photosPublished == 6)
            #expect(report.pixelBudget == 3_000_000)
            #expect(report.peakJobs == 1)
            #expect(report.peakPixelsInFlight == 1600 * 1000)
        }
    }
}
