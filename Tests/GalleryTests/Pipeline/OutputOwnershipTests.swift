import Foundation
import GalleryConfig
import GalleryOutput
import GalleryPipeline
import Testing

/// Where the output may be, and what `clean`, `cache gc` and `deploy` leave alone: the files
/// galleryssg did not write.
extension LoadSensitive {
    @Suite("Output place, clean, gc and deploy keep foreign files", .serialized)
    struct OutputOwnershipTests {
        static let mine = Data("mine, not galleryssg's\n".utf8)

        private func config(_ site: FixtureSite, output: String, source: [String: Any]? = nil) throws -> SiteConfig {
            var changes: [String: Any] = ["output": output]
            if let source { changes["source"] = source }
            try site.updateConfig(changes)
            return try SiteConfig.load(from: site.configURL, environment: [:])
        }

        @Test func anOutputOnAboveOrInsideAFolderTheSiteNeedsIsRefusedWithTheReason() throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            let cases: [(output: String, words: String)] = [
                (".", "is the folder of the config file"),
                ("..", "contains the folder of the config file"),
                (".galleryssg", "is the state folder (\"state\")"),
                (".galleryssg/public", "is inside the state folder (\"state\")"),
                (".galleryssg/cache/site", "is inside the state folder (\"state\")"),
                ("Templates/site", "is inside the templates folder (\"templates\")")
            ]
            for (output, words) in cases {
                let config = try config(site, output: output)
                let error = #expect(throws: OutputError.self) {
                    try OutputFolder.checkPlace(config.output, protecting: config.protectedFolders)
                }
                #expect(error?.kind == .misplaced, "\(output)")
                // The words a person reads name the folder and the setting that places it, and the fix.
                #expect(error?.description.contains(words) == true, "\(output): \(error.map { "\($0)" } ?? "none")")
                #expect(error?.description.contains("choose another \"output\"") == true)
            }
            let cache = try config(site, output: "shared-cache/site")
            var moved = cache
            moved.cacheDirectory = site.folder.appendingPathComponent("shared-cache")
            let inCache = #expect(throws: OutputError.self) {
                try OutputFolder.checkPlace(moved.output, protecting: moved.protectedFolders)
            }
            #expect(inCache?.kind == .misplaced)
            let photos = try config(site, output: "photos/site", source: ["type": "folder", "path": "photos"])
            let inPhotos = #expect(throws: OutputError.self) {
                try OutputFolder.checkPlace(photos.output, protecting: photos.protectedFolders)
            }
            #expect(inPhotos?.kind == .misplaced)
            // The words name the setting behind the folder, as a person reads them.
            #expect(inPhotos?.description.contains("is inside the photos folder (\"source.path\")") == true)
            // The normal case: inside the config's folder, beside the photos.
            let normal = try config(site, output: "public", source: ["type": "folder", "path": "photos"])
            try OutputFolder.checkPlace(normal.output, protecting: normal.protectedFolders)
        }

        @Test func aBuildIntoTheStateFolderIsRefusedBeforeAnyWork() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            let config = try config(site, output: ".galleryssg/public")
            let error = await #expect(throws: BuildError.self) {
                _ = try await Build(config: config, options: BuildOptions(jobs: 2)).run()
            }
            #expect(error?.step == .output)
            #expect((error?.underlying as? OutputError)?.kind == .misplaced, "\(String(describing: error))")
            #expect(!FileManager.default.fileExists(atPath: site.cache.path))
        }

        @Test func cleanRemovesOnlyWhatGalleryssgWrote() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            var retitled = IncrementalFixtures.five
            retitled[4]["title"] = "Five, retitled"  // a change: the build stages and leaves a spare
            try site.writeManifest(retitled)
            _ = try await site.build()
            try Self.mine.write(to: site.output.appendingPathComponent("photos/one/mine.txt"))
            let spare = site.folder.appendingPathComponent(".public.spare")
            try Self.mine.write(to: spare.appendingPathComponent("kept.txt"))
            let config = try SiteConfig.load(from: site.configURL, environment: [:])
            let (removed, kept) = try Maintenance.clean(config)
            #expect(!removed.contains(site.output.path))
            #expect(kept.count == 2 && kept.allSatisfy { $0.contains("1 file galleryssg did not write") })
            #expect(try Data(contentsOf: site.output.appendingPathComponent("photos/one/mine.txt")) == Self.mine)
            #expect(try Data(contentsOf: spare.appendingPathComponent("kept.txt")) == Self.mine)
            #expect(site.outputFiles() == ["photos/one/mine.txt"])
            #expect(site.outputFiles(in: spare) == ["kept.txt"])

            // A site with nothing added goes entirely, with its spare.
            try FileManager.default.removeItem(at: site.output)
            try FileManager.default.removeItem(at: spare)
            _ = try await site.build()
            _ = try await site.build()
            let (again, none) = try Maintenance.clean(config)
            #expect(again.contains(site.output.path) && none.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: site.output.path))
            #expect(!FileManager.default.fileExists(atPath: spare.path))
        }

        @Test func cacheGCRemovesOnlyFilesNamedAsItsCacheKeys() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let images = site.cache.appendingPathComponent("images")
            let foreign = [
                "images/notes.txt", "images/ab/readme", "images/00/" + String(repeating: "0", count: 63),
                "originals/mine.bin", "pages/Backup/index.html"
            ]
            for path in foreign {
                let url = site.cache.appendingPathComponent(path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Self.mine.write(to: url)
            }
            let orphan = images.appendingPathComponent("ab/ab" + String(repeating: "c", count: 62))
            let leftover = images.appendingPathComponent("ab/ab" + String(repeating: "d", count: 62) + ".tmp-123-456")
            try Self.mine.write(to: orphan)
            try Self.mine.write(to: leftover)
            let removed = try Maintenance.collectGarbage(try SiteConfig.load(from: site.configURL, environment: [:]))
            #expect(removed.first { $0.name == "images" }?.files == 2)
            #expect(
                !FileManager.default.fileExists(atPath: orphan.path)
                    && !FileManager.default.fileExists(atPath: leftover.path))
            for path in foreign {
                #expect(try Data(contentsOf: site.cache.appendingPathComponent(path)) == Self.mine, "\(path)")
            }
            #expect(try await site.cleanBuildHash() == site.treeHash())
        }

        @Test func aFolderTargetHoldingOtherFilesIsRefusedAndTheMarkerIsNeverDeployed() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            #expect(
                FileManager.default.fileExists(atPath: site.output.appendingPathComponent(SiteMarker.fileName).path))
            #expect(try LocalSite.scan(site.output).allSatisfy { !SiteMarker.names.contains($0.key) })

            let www = try Fixtures.temporaryFolder().appendingPathComponent("www")
            try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)
            try Self.mine.write(to: www.appendingPathComponent("thesis.txt"))
            let refused = await #expect(throws: DeployError.self) {
                _ = try await Deployer(target: FolderTarget(folder: www), site: site.output).deploy()
            }
            #expect(
                refused?.kind == .foreignFiles && refused?.location == www.standardizedFileURL.path,
                "\(String(describing: refused))")
            #expect(try FileManager.default.contentsOfDirectory(atPath: www.path) == ["thesis.txt"])

            // With a record of what it deployed, a file added to the target later is refused too.
            let record = site.state.appendingPathComponent("deployed/www")
            try FileManager.default.removeItem(at: www.appendingPathComponent("thesis.txt"))
            _ = try await Deployer(target: FolderTarget(folder: www, record: record), site: site.output).deploy()
            #expect(!FileManager.default.fileExists(atPath: www.appendingPathComponent(SiteMarker.fileName).path))
            #expect(try FixtureSite.treeHash(of: www) == site.treeHash())
            try Self.mine.write(to: www.appendingPathComponent("CNAME"))
            let again = await #expect(throws: DeployError.self) {
                _ = try await Deployer(target: FolderTarget(folder: www, record: record), site: site.output).deploy()
            }
            #expect(again?.kind == .foreignFiles, "\(String(describing: again))")
            #expect(try Data(contentsOf: www.appendingPathComponent("CNAME")) == Self.mine)
        }

        @Test func aSiteOlderThanItsConfigTemplatesOrStateIsStale() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let load = { try SiteConfig.load(from: site.configURL, environment: [:]) }
            #expect(SiteFreshness.check(try load()) == nil)

            try site.updateConfig(["title": "Renamed"])
            let config = try #require(SiteFreshness.check(try load()))
            #expect(config.changes == ["the config \(site.configURL.path) changed"])
            #expect(config.description.contains("galleryssg build") && config.description.contains("--force"))
            _ = try await site.build()
            #expect(SiteFreshness.check(try load()) == nil)

            let templates = site.folder.appendingPathComponent("Templates/static")
            try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            try Data("body { margin: 0 }".utf8).write(to: templates.appendingPathComponent("extra.css"))
            #expect(SiteFreshness.check(try load())?.changes.first?.contains("the templates") == true)
            _ = try await site.build()
            #expect(SiteFreshness.check(try load()) == nil)

            var elsewhere = try load()
            elsewhere.output = site.folder.appendingPathComponent("preview")
            _ = try await Build(config: elsewhere, options: BuildOptions(jobs: 2)).run()
            #expect(SiteFreshness.check(try load())?.changes.first?.contains("records a later build") == true)
        }

        @Test func theCommandLineSaysThePreviousSiteWasKeptOnlyWhenThereWasOneAndRefusesAStaleDeploy() async throws {
            let site = try FixtureSite.make(entries: Array(IncrementalFixtures.five.prefix(2)))
            let build = ["build", "--config", site.configURL.path, "--jobs", "2"]
            try Data("not a folder".utf8).write(to: site.output)
            let file = try IncrementalFixtures.run(build)
            #expect(file.status == 1)
            #expect(file.errors.contains("the output exists and is a file, not a folder"))
            #expect(!file.errors.contains("previous site"), "\(file.errors)")
            try FileManager.default.removeItem(at: site.output)
            #expect(try IncrementalFixtures.run(build + ["--rebuild"]).status == 0)

            try Data("{".utf8).write(to: site.folder.appendingPathComponent("manifest.json"))
            let failed = try IncrementalFixtures.run(build)
            #expect(
                failed.status == 1
                    && failed.errors.contains("the previous site in \(site.output.path) was left as it was"))
            try site.writeManifest(Array(IncrementalFixtures.five.prefix(2)))

            try site.updateConfig(["title": "Changed after the build"])
            let folder = try Fixtures.temporaryFolder().appendingPathComponent("www")
            let deploy = ["deploy", "file://" + folder.path, "--config", site.configURL.path]
            let stale = try IncrementalFixtures.run(deploy)
            #expect(stale.status == 1)
            #expect(stale.errors.contains("out of date: the config \(site.configURL.path) changed"), "\(stale.errors)")
            #expect(stale.errors.contains("galleryssg build") && stale.errors.contains("--force"))
            #expect(!FileManager.default.fileExists(atPath: folder.path))
            let forced = try IncrementalFixtures.run(deploy + ["--force"])
            #expect(forced.status == 0 && forced.errors.contains("warning: ") && forced.errors.contains("out of date"))
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("index.html").path))
        }
    }
}
