import Foundation
import GalleryConfig
import GalleryOutput
import GalleryPipeline
import Testing

/// A build that changes nothing keeps the published site where it is instead of staging a copy and
/// swapping it in (`LiveSite`); any file that differs, is missing, or is no longer wanted makes it
/// stage, atomically, as every build did before.
extension LoadSensitive {
    @Suite("A no-op keeps the published site in place", .serialized)
    struct NoOpInPlaceTests {
        /// The inode of the output folder and of every folder and file in it, by site path; the
        /// marker, rewritten by every build, is left out.
        static func inodes(_ site: FixtureSite) -> [String: UInt64] {
            let root = site.output.path
            var found: [String: UInt64] = [:]
            func note(_ path: String) {
                var info = stat()
                if lstat(root + (path.isEmpty ? "" : "/" + path), &info) == 0 { found[path] = UInt64(info.st_ino) }
            }
            note("")
            let walker = FileManager.default.enumerator(atPath: root)
            while let path = walker?.nextObject() as? String {
                if path != SiteMarker.fileName { note(path) }
            }
            return found
        }

        static func leftovers(_ site: FixtureSite) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: site.folder.path).filter { $0.hasPrefix(".public.") }
        }

        static func config(_ site: FixtureSite) throws -> SiteConfig {
            try SiteConfig.load(from: site.configURL, environment: [:])
        }

        @Test func aNoOpLeavesEveryPublishedFileAndFolderAsItWas() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            let cold = try await site.build()
            let hash = try site.treeHash()
            let before = Self.inodes(site)
            let again = try await site.build()
            #expect(Self.inodes(site) == before)
            #expect(try Self.leftovers(site).isEmpty)  // no staging folder, no spare
            #expect(again.photosUnchanged == 5 && again.derivativesMade == 0 && again.pagesRendered == 0)
            #expect(again.derivativesReused == cold.derivativesMade && again.pagesReused == cold.pages)
            #expect(try site.treeHash() == hash)
            // The site's record names this build, so the site is current for `deploy`.
            let config = try Self.config(site)
            #expect(config.siteBook.record(of: site.output)?.stateBuild == Build.lastRecordedBuild(config))
            #expect(SiteFreshness.check(config) == nil)
        }

        @Test func aNoOpRestoresPublishedFilesDeletedOrChangedByHand() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let hash = try site.treeHash()
            let files = site.outputFiles()
            let image = try #require(files.first { $0.hasPrefix("photos/two/") && $0.hasSuffix(".jpg") })
            let style = try #require(files.first { $0.hasPrefix("static/") && $0.hasSuffix(".css") })
            // Deleted: a derivative and a page. Replaced by another file: the home page and a
            // stylesheet the build writes (not links).
            for path in [image, "photos/three/index.html"] {
                try FileManager.default.removeItem(at: site.output.appendingPathComponent(path))
            }
            for path in ["index.html", style] {
                let url = site.output.appendingPathComponent(path)
                let size = try Data(contentsOf: url).count
                try FileManager.default.removeItem(at: url)
                try Data(repeating: 0x5a, count: size).write(to: url)
            }
            let report = try await site.build()
            #expect(report.derivativesMade == 0 && report.pagesRendered == 0)
            #expect(try site.treeHash() == hash)
            // Staged and swapped in: the published site went into the spare.
            #expect(try Self.leftovers(site) == [".public.spare"])
        }

        @Test func aPublishedFileEditedInPlaceIsMadeAgain() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let hash = try site.treeHash()
            let image = try #require(site.outputFiles().first { $0.hasPrefix("photos/four/") && $0.hasSuffix(".jpg") })
            // A hard link to the cached blob: editing it in place damages the blob too.
            let handle = try FileHandle(forWritingTo: site.output.appendingPathComponent(image))
            try handle.write(contentsOf: Data(repeating: 0x5a, count: 16))
            try handle.close()
            let report = try await site.build()
            #expect(report.derivativesMade == 1)
            #expect(try site.treeHash() == hash)
        }

        @Test func aFileTheListNamesButTheBuildNoLongerWritesIsPruned() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let hash = try site.treeHash()
            // As if an earlier build had published it: in the site and in its file list.
            let stale = "photos/one/stale.jpg"
            try Data("old".utf8).write(to: site.output.appendingPathComponent(stale))
            let list = URL(fileURLWithPath: try #require(try Self.config(site).siteBook.listPath(of: site.output)))
            var bytes = try Data(contentsOf: list)
            bytes.append(Data((stale + "\0").utf8))
            try bytes.write(to: list)
            _ = try await site.build()
            #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent(stale).path))
            #expect(try site.treeHash() == hash)
        }

        @Test func aFileAddedByHandStaysThroughANoOp() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let mine = Data("my notes\n".utf8)
            try mine.write(to: site.output.appendingPathComponent("photos/one/mine.txt"))
            let before = Self.inodes(site)
            _ = try await site.build()
            #expect(Self.inodes(site) == before)
            #expect(try Data(contentsOf: site.output.appendingPathComponent("photos/one/mine.txt")) == mine)
        }

        @Test func aChangeStillStagesTheWholeSiteAndSwapsItIn() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let before = Self.inodes(site)
            // The last photo changes, after the others were checked against the published site.
            var entries = IncrementalFixtures.five
            entries[4]["title"] = "Five, retitled"
            try site.writeManifest(entries)
            let report = try await site.build()
            #expect(report.photosChanged == 1 && report.derivativesMade == 0)
            #expect(try await site.cleanBuildHash() == site.treeHash())
            // A new site was swapped in whole; the old one, untouched, is the spare.
            #expect(Self.inodes(site)[""] != before[""])
            let spare = FixtureSite(folder: site.folder).outputFiles(
                in: site.folder.appendingPathComponent(".public.spare"))
            #expect(spare.contains("photos/five/index.html"))
            #expect(try Self.leftovers(site) == [".public.spare"])
            // The next no-op keeps the new site.
            let after = Self.inodes(site)
            _ = try await site.build()
            #expect(Self.inodes(site) == after)
        }

        @Test func aFailedBuildLeavesThePublishedSiteAsItWas() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let hash = try site.treeHash()
            let before = Self.inodes(site)
            // Every photo fails, so the build does.
            var entries = IncrementalFixtures.five.map { entry in
                var entry = entry
                entry["image"] = "photos/does-not-exist.jpg"
                return entry
            }
            entries[0]["title"] = "One, retitled"
            try site.writeManifest(entries)
            await #expect(throws: (any Error).self) { try await site.build() }
            #expect(Self.inodes(site) == before)
            #expect(try site.treeHash() == hash)
        }
    }
}
