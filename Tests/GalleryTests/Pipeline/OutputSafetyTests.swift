import Foundation
import GalleryConfig
import GalleryOutput
import GalleryPipeline
import Synchronization
import Testing

/// A build never destroys a file galleryssg did not write: a foreign output folder is refused
/// before any work, `--force` moves its files aside (never deletes them), and a file added by hand
/// to a published site is refused (or moved with `--force`) before the swap could prune it.
extension LoadSensitive {
    @Suite("Never destroy what galleryssg did not write", .serialized)
    struct OutputSafetyTests {
        static let thesis = Data("Chapter 1. Only copy of my thesis.\n".utf8)

        /// Builds and returns the report and the warnings it gave.
        static func build(_ site: FixtureSite, takeOver: Bool = false) async throws -> (BuildReport, [String]) {
            let warnings = Mutex<[String]>([])
            let config = try SiteConfig.load(from: site.configURL, environment: [:])
            let report = try await Build(
                config: config, options: BuildOptions(jobs: 2, takeOver: takeOver),
                progress: { event in
                    if case .warning(let text) = event { warnings.withLock { $0.append(text) } }
                }
            ).run()
            return (report, warnings.withLock { $0 })
        }

        /// The error a build threw, as the user reads it.
        static func refusal(_ site: FixtureSite) async -> String? {
            do {
                _ = try await build(site)
                return nil
            } catch {
                return "\(error)"
            }
        }

        /// Changes the bytes of one fixture photo (a comment segment), so the next build has work.
        static func changePhoto(_ site: FixtureSite, _ index: Int, _ text: String) throws {
            let url = site.folder.appendingPathComponent("photos/photo-\(index).jpg")
            try Fixtures.unique(try Data(contentsOf: url), text).write(to: url)
        }

        /// The folders `--force` made beside the output.
        static func asideFolders(_ site: FixtureSite) throws -> [URL] {
            try FileManager.default.contentsOfDirectory(atPath: site.folder.path)
                .filter { $0.hasPrefix("public.galleryssg-moved-") }.sorted()
                .map { site.folder.appendingPathComponent($0) }
        }

        @Test func aFolderOfSomeoneElsesFilesIsRefusedBeforeAnyWorkAndKeptByteForByte() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            try FileManager.default.createDirectory(at: site.output, withIntermediateDirectories: true)
            try Self.thesis.write(to: site.output.appendingPathComponent("thesis.txt"))

            for round in 0..<2 {
                let message = try #require(await Self.refusal(site))
                #expect(message.contains(site.output.path))
                #expect(message.contains("1 entry galleryssg did not write: thesis.txt"))
                #expect(message.contains("--force") && message.contains("\"output\""))
                #expect(try Data(contentsOf: site.output.appendingPathComponent("thesis.txt")) == Self.thesis)
                #expect(try FileManager.default.contentsOfDirectory(atPath: site.output.path) == ["thesis.txt"])
                // Refused before any work: no photo was read, nothing was cached, no state was kept.
                #expect(!FileManager.default.fileExists(atPath: site.cache.path))
                #expect(!FileManager.default.fileExists(atPath: site.state.appendingPathComponent("state.sqlite").path))
                try Self.changePhoto(site, 2, "round \(round)")
            }
            #expect(!FileManager.default.fileExists(atPath: site.folder.appendingPathComponent(".public.spare").path))
        }

        @Test func forceMovesForeignFilesAsideAndLaterBuildsLeaveThemThere() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            try FileManager.default.createDirectory(
                at: site.output.appendingPathComponent("notes"), withIntermediateDirectories: true)
            try Self.thesis.write(to: site.output.appendingPathComponent("thesis.txt"))
            try Self.thesis.write(to: site.output.appendingPathComponent("notes/draft.txt"))

            let (report, warnings) = try await Self.build(site, takeOver: true)
            #expect(report.photosSkipped == 0)
            let aside = try #require(try Self.asideFolders(site).first)
            #expect(
                warnings.contains {
                    $0.contains("moved 2 entries") && $0.contains(aside.path) && $0.contains("nothing was deleted")
                })
            #expect(try Data(contentsOf: aside.appendingPathComponent("thesis.txt")) == Self.thesis)
            #expect(try Data(contentsOf: aside.appendingPathComponent("notes/draft.txt")) == Self.thesis)
            #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("index.html").path))
            #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("thesis.txt").path))

            for round in 0..<3 {  // the spare is made, then reused and pruned
                try Self.changePhoto(site, 3, "round \(round)")
                _ = try await Self.build(site)
                #expect(try Data(contentsOf: aside.appendingPathComponent("thesis.txt")) == Self.thesis)
                #expect(try Data(contentsOf: aside.appendingPathComponent("notes/draft.txt")) == Self.thesis)
            }
            #expect(try Self.asideFolders(site) == [aside])
            #expect(try await site.cleanBuildHash() == site.treeHash())
        }

        @Test func aFileAddedAtThePublishedSitesRootIsRefusedAtTheNextBuild() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await Self.build(site)
            let cname = Data("photos.example.com\n".utf8)
            try cname.write(to: site.output.appendingPathComponent("CNAME"))
            try Self.changePhoto(site, 1, "after CNAME")
            let message = try #require(await Self.refusal(site))
            #expect(message.contains("1 entry galleryssg did not write: CNAME"))
            #expect(try Data(contentsOf: site.output.appendingPathComponent("CNAME")) == cname)

            _ = try await Self.build(site, takeOver: true)
            let aside = try #require(try Self.asideFolders(site).first)
            #expect(try Data(contentsOf: aside.appendingPathComponent("CNAME")) == cname)
            #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("CNAME").path))
        }

        @Test func aFileAddedDeepInThePublishedSiteIsNeverPruned() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await Self.build(site)
            try Self.changePhoto(site, 5, "a spare")
            _ = try await Self.build(site)  // now there is a spare
            let mine = Data("my own caption notes\n".utf8)
            let path = "photos/one/mine.txt"
            try mine.write(to: site.output.appendingPathComponent(path))
            try Self.changePhoto(site, 2, "first change")
            _ = try await Self.build(site)  // swaps the hand-made file out into the spare
            let spare = site.folder.appendingPathComponent(".public.spare")
            #expect(try Data(contentsOf: spare.appendingPathComponent(path)) == mine)

            try Self.changePhoto(site, 3, "second change")
            let message = try #require(await Self.refusal(site))
            #expect(message.contains(spare.path) && message.contains("1 file galleryssg did not write"))
            #expect(message.contains(path) && message.contains("--force"))
            #expect(try Data(contentsOf: spare.appendingPathComponent(path)) == mine)

            _ = try await Self.build(site, takeOver: true)
            let aside = try #require(try Self.asideFolders(site).first)
            #expect(try Data(contentsOf: aside.appendingPathComponent(path)) == mine)
            _ = try await Self.build(site)
            #expect(try Data(contentsOf: aside.appendingPathComponent(path)) == mine)
            #expect(try await site.cleanBuildHash() == site.treeHash())
        }

        @Test func filesAKilledBuildMadeArePrunedButOlderForeignOnesAreNot() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await Self.build(site)
            try Self.changePhoto(site, 5, "a spare")  // a change: the build stages and leaves a spare
            _ = try await Self.build(site)
            let spare = site.folder.appendingPathComponent(".public.spare")
            try Self.thesis.write(to: spare.appendingPathComponent("photos/two/thesis.txt"))
            // A build killed part-way: the spare became its staging folder, it left its note, then made a file.
            let killed = site.folder.appendingPathComponent(".public.staging-999999")
            try FileManager.default.moveItem(at: spare, to: killed)
            try await Task.sleep(nanoseconds: 50_000_000)
            #expect(
                FileManager.default.createFile(
                    atPath: killed.appendingPathComponent(SiteMarker.buildingName).path, contents: Data()))
            try await Task.sleep(nanoseconds: 50_000_000)
            try Data("partial".utf8).write(to: killed.appendingPathComponent("photos/one/partial.jpg"))

            try Self.changePhoto(site, 4, "after the kill")  // so the build stages (a no-op keeps the site)
            let message = try #require(await Self.refusal(site))
            #expect(message.contains("photos/two/thesis.txt") && message.contains("1 file"))
            #expect(!message.contains("partial.jpg"))
            #expect(try Data(contentsOf: spare.appendingPathComponent("photos/two/thesis.txt")) == Self.thesis)
        }

        @Test func aSiteBuiltBeforeMarkersIsAdoptedWhenTheStateRecordsBuilds() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await Self.build(site)
            for name in [SiteMarker.fileName] {
                try FileManager.default.removeItem(at: site.output.appendingPathComponent(name))
            }
            try Self.changePhoto(site, 4, "after upgrade")
            _ = try await Self.build(site)
            #expect(SiteMarker.read(in: site.output) != nil)
            #expect(try await site.cleanBuildHash() == site.treeHash())

            // Without the state's record of builds, the same folder is not taken as galleryssg's.
            for name in [SiteMarker.fileName] {
                try FileManager.default.removeItem(at: site.output.appendingPathComponent(name))
            }
            try FileManager.default.removeItem(at: site.state)
            let message = try #require(await Self.refusal(site))
            #expect(message.contains("entries galleryssg did not write") && message.contains("--force"))
            #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("index.html").path))
        }

        @Test func filesASiteBuiltBeforeMarkersNoLongerHasAreMovedNotDeleted() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await Self.build(site)
            try Self.changePhoto(site, 5, "a spare")  // a change: the build stages and leaves a spare
            _ = try await Self.build(site)
            let spare = site.folder.appendingPathComponent(".public.spare")
            for folder in [site.output, spare] {  // as the version before markers left them
                for name in [SiteMarker.fileName] {
                    try FileManager.default.removeItem(at: folder.appendingPathComponent(name))
                }
            }
            let path = "photos/one/mine.txt"
            try Self.thesis.write(to: site.output.appendingPathComponent(path))
            var warnings: [String] = []
            for round in 0..<2 {
                try Self.changePhoto(site, 2 + round, "after upgrade \(round)")
                warnings += try await Self.build(site).1
            }
            let copies = try Self.asideFolders(site).map { $0.appendingPathComponent(path) }
                .filter { FileManager.default.fileExists(atPath: $0.path) }
            #expect(copies.count == 1)
            #expect(try copies.first.map { try Data(contentsOf: $0) } == Self.thesis)
            #expect(
                warnings.contains {
                    $0.contains("built by an earlier galleryssg") && $0.contains("rather than deleted")
                })
            #expect(try await site.cleanBuildHash() == site.treeHash())
        }

        @Test func aSpareAnEarlierVersionFilledWithForeignFilesIsRefusedThenMoved() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await Self.build(site)
            // What the old version did: it swapped a foreign output into the spare.
            let spare = site.folder.appendingPathComponent(".public.spare")
            try FileManager.default.createDirectory(at: spare, withIntermediateDirectories: true)
            try Self.thesis.write(to: spare.appendingPathComponent("thesis.txt"))
            let message = try #require(await Self.refusal(site))
            #expect(message.contains(spare.path) && message.contains("thesis.txt"))
            #expect(try Data(contentsOf: spare.appendingPathComponent("thesis.txt")) == Self.thesis)

            _ = try await Self.build(site, takeOver: true)
            let aside = try #require(try Self.asideFolders(site).first)
            #expect(try Data(contentsOf: aside.appendingPathComponent("thesis.txt")) == Self.thesis)
        }
    }
}
