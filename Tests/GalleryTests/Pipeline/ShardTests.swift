import Foundation
import GalleryKeys
import GalleryModel
import GalleryPipeline
import GalleryStore
import Testing

/// Cold builds across machines: `build --images-only --shard K/N` processes one slice of the photos
/// into a shared cache, and a plain build over that cache renders the same site as a single build
/// without decoding a photo again.
@Suite struct ShardTests {
    /// A site with 17 manifest entries: the six fixture JPEGs, a transparent PNG, JPEGs with camera
    /// EXIF, GPS and orientation, with XMP and IPTC, with junk bytes a decoder warns about, four
    /// distinct copies of one photo, one photo's bytes under a second name, one photo listed twice,
    /// and a truncated JPEG that fails everywhere. Locations are shown, so GPS facts reach the pages.
    static func site() throws -> FixtureSite {
        var entries: [[String: Any]] = (1...6).map {
            ["id": "p\($0)", "title": "Photo \($0)", "image": "photos/photo-\($0).jpg"]
        }
        entries += [
            ["id": "png", "title": "Transparent", "image": "photos/half-transparent.png"],
            ["id": "gps", "image": "photos/gps.jpg"],
            ["id": "camera", "image": "photos/extra/camera.jpg"],
            ["id": "caption", "image": "photos/extra/exif-camera-caption.jpg"],
            ["id": "all-three", "image": "photos/extra/all-three.jpg"],
            ["id": "retouched", "image": "photos/extra/retouched.jpg"],
            ["id": "again", "title": "Photo 1 again", "image": "photos/photo-1.jpg"],
            ["id": "copy", "title": "Photo 2 copied", "image": "photos/extra/copy-of-photo-2.jpg"],
            ["id": "broken", "image": "photos/truncated.jpg"]
        ]
        entries += (0..<4).map { ["id": "unique-\($0)", "image": "photos/extra/unique-\($0).jpg"] }
        let site = try FixtureSite.make(
            entries: entries,
            config: [
                "images": ["thumbnail": 64, "preview": 120, "widths": [80], "showLocation": true]
            ])
        let extra = site.folder.appendingPathComponent("photos/extra")
        try FileManager.default.createDirectory(at: extra, withIntermediateDirectories: true)
        for fixture in [
            "privacy/camera.jpg", "metadata/exif-camera-caption.jpg", "metadata/all-three.jpg",
            "library/Photos/Portfolio/retouched.jpg"
        ] {
            try Fixtures.data(fixture).write(to: extra.appendingPathComponent((fixture as NSString).lastPathComponent))
        }
        try Fixtures.data("images/photo-2.jpg").write(to: extra.appendingPathComponent("copy-of-photo-2.jpg"))
        for index in 0..<4 {
            try Fixtures.unique(try Fixtures.data("images/photo-3.jpg"), "shard test \(index)")
                .write(to: extra.appendingPathComponent("unique-\(index).jpg"))
        }
        return site
    }

    /// The originals a learnt file lists.
    static func learntLocations(_ cache: URL, _ shard: Shard) throws -> [String] {
        let file = SharedCache(folder: cache).learntFolder.appendingPathComponent(shard.learntFileName)
        return try LearntFile.decoder.decode(LearntFile.self, from: Data(contentsOf: file)).originals.map(\.location)
    }

    @Test func fourShardProcessesThenABuildEqualASingleNodeBuild() async throws {
        let single = try Self.site()
        let alone = try await single.build()
        #expect(
            alone.derivativesMade > 0 && alone.warnings.map(\.id) == ["retouched"]
                && alone.failures.map(\.id) == ["broken"])

        let machines = try Self.site()
        let cache = try Fixtures.temporaryFolder()
        var shards: [BuildReport] = []
        for index in 1...4 {
            let reportFile = machines.folder.appendingPathComponent("shard-\(index).json")
            let run = try IncrementalFixtures.run([
                "build", "--config", machines.configURL.path, "--images-only", "--shard", "\(index)/4",
                "--cache", cache.path, "--jobs", "2", "--quiet", "--report", reportFile.path
            ])
            #expect(run.status == 0, "shard \(index): \(run.errors)")
            shards.append(try JSONDecoder().decode(BuildReport.self, from: Data(contentsOf: reportFile)))
        }
        #expect(!FileManager.default.fileExists(atPath: machines.output.path), "a shard publishes nothing")
        #expect(!FileManager.default.fileExists(atPath: machines.state.path), "nor writes in the state folder")
        #expect(shards.map(\.shard) == ["1/4", "2/4", "3/4", "4/4"])
        // Every manifest entry is in exactly one slice, and every original was processed by one shard.
        #expect(shards.map { $0.photosInSlice ?? 0 }.reduce(0, +) == alone.photosInManifest)
        #expect(shards.map(\.photosPublished).reduce(0, +) == alone.photosPublished)
        #expect(shards.allSatisfy { $0.photosInSlice ?? 0 < alone.photosInManifest }, "the slices are not all in one")
        let learnt = try (1...4).map { try Self.learntLocations(cache, try Shard($0, of: 4)) }
        #expect(Set(learnt.joined()).count == learnt.joined().count, "\(learnt)")
        #expect(Set(learnt.joined()) == Set(try Self.manifestPaths(machines)).subtracting(["photos/truncated.jpg"]))

        // The final build runs in another copy of the site, as on another machine: other paths, other
        // modification times (so it hashes each original once), the same content hashes.
        let site = try Self.site()
        try site.updateConfig(["cache": cache.path])
        let final = try await site.build()
        #expect(final.learntFilesRead == 4)
        #expect(final.derivativesMade == 0, "\(final.summary)")
        #expect(final.derivatives == alone.derivatives && final.photosPublished == alone.photosPublished)
        #expect(
            final.warnings
                == alone.warnings.map { warning in
                    var moved = warning
                    moved.location = warning.location?.replacingOccurrences(
                        of: single.folder.path, with: site.folder.path)
                    return moved
                })
        #expect(final.failures.map(\.id) == ["broken"])
        #expect(try site.treeHash() == single.treeHash())

        // The state took in all it needed: the next build reads no learnt file until one changes
        // (a shard run again renames a new file over its old one).
        let next = try await site.build()
        #expect(
            next.learntFilesRead == 0 && next.learntFilesUnchanged == 4 && next.derivativesMade == 0, "\(next.summary)")
        let second = SharedCache(folder: cache).learntFolder.appendingPathComponent(try Shard(2, of: 4).learntFileName)
        try AtomicFile.write(try Data(contentsOf: second), to: second.path)
        let reread = try await site.build()
        #expect(reread.learntFilesRead == 1 && reread.learntFilesUnchanged == 3 && reread.derivativesMade == 0)
        #expect(try site.treeHash() == single.treeHash())

        // The final build kept what it adopted: without the learnt files its state alone suffices.
        try FileManager.default.removeItem(at: SharedCache(folder: cache).learntFolder)
        let again = try await site.build()
        #expect(
            again.derivativesMade == 0 && again.learntFilesRead == 0 && again.photosUnchanged == alone.photosPublished)
        #expect(try site.treeHash() == single.treeHash())
    }

    /// The `image` paths of the site's manifest.
    static func manifestPaths(_ site: FixtureSite) throws -> [String] {
        let manifest = try JSONSerialization.jsonObject(
            with: Data(contentsOf: site.folder.appendingPathComponent("manifest.json")))
        return ((manifest as? [String: Any])?["photos"] as? [[String: Any]] ?? []).compactMap { $0["image"] as? String }
    }

    @Test func aBuildMakesWhatAMissingShardLeftOut() async throws {
        let site = try Self.site()
        let clean = try await site.cleanBuildHash()
        let cache = try Fixtures.temporaryFolder()
        try site.updateConfig(["cache": cache.path])
        let missing = try Shard(3, of: 4)
        #expect(try Self.manifestPaths(site).contains { missing.contains(locationKey: $0) }, "shard 3 has photos")
        for index in [1, 2, 4] {
            let report = try await site.build(BuildOptions(jobs: 2, imagesOnly: try Shard(index, of: 4)))
            #expect(report.shard == "\(index)/4" && report.learntFile?.hasSuffix("shard-\(index)-of-4.json") == true)
        }
        // A damaged learnt file (a copy cut short, say) is skipped with a warning; its photos are made again.
        try Data("{\"version\": 1, \"sha".utf8).write(
            to: SharedCache(folder: cache).learntFolder.appendingPathComponent("shard-3-of-4.json"))
        let final = try await site.build()
        #expect(final.learntFilesRead == 3)
        #expect(final.derivativesMade > 0 && final.derivativesReused > 0, "\(final.summary)")
        #expect(try site.treeHash() == clean)
    }

    @Test func anImagesOnlyBuildLeavesThePublishedSiteAndItsStateAsTheyWere() async throws {
        let site = try Self.site()
        _ = try await site.build()
        let published = try site.treeHash()
        let state = try Data(contentsOf: StateDatabase.file(in: site.state))
        let cache = try Fixtures.temporaryFolder()
        let options = BuildOptions(jobs: 2, imagesOnly: .all)
        try site.updateConfig(["cache": cache.path])
        let report = try await site.build(options)
        #expect(report.shard == "1/1" && report.photosInSlice == report.photosInManifest && report.pages == 0)
        #expect(try site.treeHash() == published)
        #expect(try Data(contentsOf: StateDatabase.file(in: site.state)) == state)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: site.folder.path).allSatisfy {
                !$0.hasPrefix(".public.")
            })
        // Run again, it continues from its own learnt file: nothing is made twice, and the file is the same.
        let file = try Data(contentsOf: URL(fileURLWithPath: try #require(report.learntFile)))
        let rerun = try await site.build(options)
        #expect(rerun.derivativesMade == 0 && rerun.learntFilesRead == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: try #require(rerun.learntFile))) == file)
    }

    @Test func badShardArgumentsExitWithStatus2() throws {
        let site = try FixtureSite.make(entries: IncrementalFixtures.five)
        for arguments in [
            ["--images-only", "--shard", "0/4"], ["--images-only", "--shard", "5/4"],
            ["--images-only", "--shard", "two/4"], ["--images-only", "--shard", "2"],
            ["--images-only", "--shard", "1/0"], ["--shard", "2/4"], ["--images-only", "--offline"]
        ] {
            let run = try IncrementalFixtures.run(["build", "--config", site.configURL.path] + arguments)
            #expect(run.status == 2, "\(arguments): \(run.errors)")
            #expect(
                run.errors.contains(arguments.contains("--offline") ? "--offline" : "--shard"),
                "\(arguments): \(run.errors)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.output.path))
    }
}
