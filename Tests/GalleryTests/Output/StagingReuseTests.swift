import Foundation
import GalleryKeys
import GalleryStore
import Testing

/// A rebuild starts its staging folder from the last site (the spare) and keeps a file there when
/// it has the size and modification time the state recorded for its blob, without looking at the
/// cache's copy (`StagedWriter.holds`). These tests change the spare behind the build's back, and
/// change a title, so that the build stages (a no-op keeps the published site and never looks at
/// the spare).
extension LoadSensitive {
    @Suite("Staging from the last site", .serialized)
    struct StagingReuseTests {
        /// Builds twice, so the next build starts from a spare, and returns the site, its tree hash
        /// and the spare folder.
        private func siteWithSpare() async throws -> (FixtureSite, String, URL) {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            try retitle(site, "Five, retitled")
            _ = try await site.build()
            let spare = site.folder.appendingPathComponent(".public.spare")
            #expect(FileManager.default.fileExists(atPath: spare.appendingPathComponent("index.html").path))
            return (site, try site.treeHash(), spare)
        }

        /// Gives photo "five" a new title: its page changes, so the next build stages.
        private func retitle(_ site: FixtureSite, _ title: String) throws {
            var entries = IncrementalFixtures.five
            entries[4]["title"] = title
            try site.writeManifest(entries)
        }

        /// The first derivative of a photo, as a site-relative path.
        private func derivative(of id: String, in site: FixtureSite) throws -> String {
            let files = site.outputFiles().filter {
                $0.hasPrefix("photos/\(id)/") && $0.hasSuffix(".jpg") && !$0.contains("original")
            }
            return try #require(files.sorted().first)
        }

        @Test func fileEditedInPlaceInTheSpareIsMadeAgain() async throws {
            let (site, hash, spare) = try await siteWithSpare()
            let image = try derivative(of: "one", in: site)
            // In place: the spare's file is a hard link, so the cached blob changes with it (same size,
            // new bytes, new modification time). Neither copy may be trusted.
            for path in [image, "photos/two/index.html"] {
                let handle = try FileHandle(forWritingTo: spare.appendingPathComponent(path))
                try handle.write(contentsOf: Data(repeating: 0x5a, count: 16))
                try handle.close()
            }
            let report = try await site.build()
            #expect(report.derivativesMade == 1)
            #expect(report.pagesRendered == 1)
            #expect(try site.treeHash() == hash)
        }

        @Test func fileReplacedInTheSpareIsLinkedAgain() async throws {
            let (site, hash, spare) = try await siteWithSpare()
            let image = try derivative(of: "three", in: site)
            // Another file of the same size in its place (a new inode: the cached blob is intact).
            let target = spare.appendingPathComponent(image)
            let size = try #require(FileStamp.of(target.path)).size
            try FileManager.default.removeItem(at: target)
            try Data(repeating: 0x5a, count: size).write(to: target)
            try retitle(site, "Five, again")
            let report = try await site.build()
            #expect(report.derivativesMade == 0)
            #expect(try site.treeHash() != hash)
            #expect(try await site.cleanBuildHash() == site.treeHash())
        }

        @Test func fileTheSpareHoldsIsKeptWithoutTheCachesCopy() async throws {
            let (site, hash, _) = try await siteWithSpare()
            let snapshot = try site.stateSnapshot()
            let images = BlobStore(folder: BuildState.imagesFolder(cache: site.cache), kind: "images")
            let key = try #require(snapshot.photos["four"]?.blobKeys.first)
            try FileManager.default.removeItem(at: images.url(key))
            // The spare still holds the blob's inode: the site is right without the cache's copy.
            try retitle(site, "Five, again")
            let kept = try await site.build()
            #expect(kept.derivativesMade == 0)
            #expect(try site.treeHash() != hash)
            let changed = try site.treeHash()
            // Without the spare and the site, the blob is missed and made again.
            try FileManager.default.removeItem(at: site.output)
            try? FileManager.default.removeItem(at: site.folder.appendingPathComponent(".public.spare"))
            let remade = try await site.build()
            #expect(remade.derivativesMade == 1)
            #expect(try site.treeHash() == changed)
        }
    }
}
