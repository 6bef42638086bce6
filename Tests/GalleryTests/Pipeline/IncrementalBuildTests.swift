import Foundation
import GalleryConfig
import GalleryKeys
import GalleryModel
import GalleryPipeline
import GalleryRender
import GalleryStore
import Testing

/// Incremental builds: the state merge, cache keys, reuse and the guarantee that every build's
/// output is byte-identical to a clean build of the same inputs.
extension LoadSensitive {
    @Suite("Incremental builds", .serialized)
    struct IncrementalBuildTests {
        @Test func twoCleanBuildsAreByteIdentical() async throws {
            let site = try FixtureSite.make()
            _ = try await site.build()
            let first = try site.treeHash()
            #expect(try await site.cleanBuildHash() == first)
            // Also a forced rebuild, which ignores every cache, gives the same tree.
            let forced = try await site.build(BuildOptions(jobs: 2, rebuild: true))
            #expect(forced.derivativesReused == 0 && forced.pagesReused == 0)
            #expect(try site.treeHash() == first)
        }

        @Test func noChangeRebuildReusesEverything() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            let cold = try await site.build()
            #expect(cold.photosNew == 5 && cold.derivativesReused == 0 && cold.pagesReused == 0)
            let hash = try site.treeHash()
            let again = try await site.build()
            #expect(
                again.photosUnchanged == 5 && again.photosNew == 0 && again.photosChanged == 0
                    && again.photosRemoved == 0)
            #expect(again.derivativesMade == 0)
            #expect(again.derivativesReused == cold.derivativesMade)
            #expect(again.pagesRendered == 0 && again.pagesReused == cold.pages)
            #expect(try site.treeHash() == hash)
            #expect(again.summary.contains("5 photos (0 new, 0 changed, 5 unchanged, 0 removed)"), "\(again.summary)")
        }

        @Test func mergeInsertsUpdatesAndDeletesWithTheirOutputs() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let before = try site.stateSnapshot()
            #expect(before.photos.values.map(\.id).sorted() == ["five", "four", "one", "three", "two"])
            let fourBlobs = try #require(before.photos["four"]?.blobKeys)
            let fiveBlobs = try #require(before.photos["five"]?.blobKeys)
            let images = BuildState.imagesFolder(cache: site.cache)
            func exists(_ key: Digest) -> Bool {
                FileManager.default.fileExists(atPath: BlobStore(folder: images, kind: "images").url(key).path)
            }
            #expect(fourBlobs.allSatisfy(exists))

            // one unchanged, two retitled, three with a new image, four and five removed, and "seven"
            // added with five's bytes, so it reuses five's cached files.
            try site.writeManifest([
                ["id": "one", "title": "One", "image": "photos/photo-1.jpg"],
                ["id": "two", "title": "Two, retitled", "image": "photos/photo-2.jpg"],
                ["id": "three", "title": "Three", "image": "photos/photo-6.jpg"],
                ["id": "seven", "title": "Seven", "image": "photos/photo-5.jpg"]
            ])
            let report = try await site.build()
            #expect(report.photosNew == 1)
            #expect(report.photosChanged == 2)
            #expect(report.photosUnchanged == 1)
            #expect(report.photosRemoved == 2)
            // Only three's new image is encoded (its derivatives and its published original).
            let after = try site.stateSnapshot()
            #expect(report.derivativesMade == after.photos["three"]?.blobKeys.count)
            #expect(after.photos.values.map(\.id).sorted() == ["one", "seven", "three", "two"])
            #expect(
                after.photos.values.sorted { $0.position < $1.position }.map(\.id) == ["one", "two", "three", "seven"])
            #expect(after.photos["seven"]?.blobKeys == fiveBlobs)

            // The removed photos' outputs are gone; four's cached files with them, five's are kept for seven.
            let files = site.outputFiles()
            #expect(!files.contains { $0.hasPrefix("photos/four/") || $0.hasPrefix("photos/five/") })
            #expect(files.contains("photos/seven/index.html"))
            #expect(!fourBlobs.contains(where: exists))
            #expect(fiveBlobs.allSatisfy(exists))
            #expect(try site.read("photos/two/index.html").contains("Two, retitled"))
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))
        }

        @Test func settingsChangesRemakeOnlyTheFilesTheyAffect() async throws {
            let site = try FixtureSite.make(entries: Array(IncrementalFixtures.five.prefix(3)))
            let cold = try await site.build()
            let jpegs = cold.derivatives - 3  // less the three published originals, which get no WebP twin

            // WebP adds a twin per derivative; every JPEG and original is reused.
            try site.updateConfig(["images": ["thumbnail": 64, "preview": 120, "widths": [80], "webp": true]])
            let webp = try await site.build()
            #expect(webp.derivativesMade == jpegs)
            #expect(webp.derivativesReused == cold.derivativesMade)
            #expect(webp.photosUnchanged == 3)
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))

            // A new quality remakes every derivative, JPEG and WebP, but not the published originals.
            try site.updateConfig([
                "images": ["thumbnail": 64, "preview": 120, "widths": [80], "webp": true, "quality": 70]
            ])
            let quality = try await site.build()
            #expect(quality.derivativesMade == 2 * jpegs)
            #expect(quality.derivativesReused == 3)
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))

            // A new srcset width adds that size and whatever cascades from it; the preview stays cached.
            try site.updateConfig([
                "images": ["thumbnail": 64, "preview": 120, "widths": [96], "webp": true, "quality": 70]
            ])
            let widths = try await site.build()
            #expect(widths.derivativesMade > 0 && widths.derivativesMade < 2 * jpegs)
            #expect(widths.derivativesReused >= 3 + 2 * 3)  // originals, and each photo's preview (JPEG + WebP)
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))

            // A title change re-renders pages that show it, and no image.
            let pagesBefore = widths.pages
            try site.writeManifest([
                ["id": "one", "title": "One!", "image": "photos/photo-1.jpg"],
                ["id": "two", "title": "Two", "image": "photos/photo-2.jpg"],
                ["id": "three", "title": "Three", "image": "photos/photo-3.jpg"]
            ])
            let retitled = try await site.build()
            #expect(retitled.derivativesMade == 0)
            #expect(retitled.pagesRendered > 0 && retitled.pagesRendered < pagesBefore)
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))
        }

        /// An unchanged site links its pages without working them out (the site key matches); any
        /// change of the settings pages show, or of the templates, makes every page be worked out
        /// again, and only what changed is rendered.
        @Test func siteWideChangesAreNotMissedByTheUnchangedSiteShortcut() async throws {
            let site = try FixtureSite.make(
                entries: IncrementalFixtures.five,
                config: [
                    "images": [
                        "thumbnail": 64, "preview": 120,
                        "widths": [80], "exifFields": ["camera"]
                    ]
                ])
            let cold = try await site.build()
            let again = try await site.build()
            #expect(again.pagesRendered == 0 && again.pagesReused == cold.pages)
            let key = try #require(try site.stateSnapshot().pagesKey)

            try site.updateConfig(["title": "A new title"])
            let retitled = try await site.build()
            #expect(retitled.pagesRendered == cold.pages, "every page shows the site title")
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))
            #expect(try site.stateSnapshot().pagesKey != key)

            // The fixtures carry no EXIF, so no page changes; but the pages are worked out again.
            let retitledKey = try site.stateSnapshot().pagesKey
            try site.updateConfig(["images": ["thumbnail": 64, "preview": 120, "widths": [80], "exifFields": ["iso"]]])
            let exif = try await site.build()
            #expect(exif.derivativesMade == 0)
            #expect(try site.stateSnapshot().pagesKey != retitledKey)
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))

            let templates = site.folder.appendingPathComponent("Templates")
            try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
            let notFound = try #require(Theme(overridesIn: nil).templates["404"])
            try Data((notFound + "\n<!-- changed -->\n").utf8).write(
                to: templates.appendingPathComponent("404.mustache"))
            let overridden = try await site.build()
            // Every page's key covers all templates (a page may include any of them as a partial).
            #expect(overridden.pagesRendered == cold.pages)
            #expect(try site.read("404.html").contains("<!-- changed -->"))
            #expect(try site.treeHash() == (try await site.cleanBuildHash()))
            let unchanged = try await site.build()
            #expect(unchanged.pagesRendered == 0)
        }

        @Test func corruptOrMissingCacheFilesAreMisses() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            let hash = try site.treeHash()
            let snapshot = try site.stateSnapshot()
            let images = BlobStore(folder: BuildState.imagesFolder(cache: site.cache), kind: "images")
            let pages = BlobStore(folder: BuildState.pagesFolder(cache: site.cache), kind: "pages")
            let one = try #require(snapshot.photos["one"]?.blobKeys.first)
            let two = try #require(snapshot.photos["two"]?.blobKeys.first)
            let page = try #require(snapshot.pages["photos/three/index.html"]?.key)

            // Same length, other bytes; a missing file; a truncated page.
            let size = try #require(FileStamp.of(images.url(one).path)).size
            try Data(repeating: 0x5a, count: size).write(to: images.url(one))
            try FileManager.default.removeItem(at: images.url(two))
            try Data("<html>".utf8).write(to: pages.url(page))

            let report = try await site.build()
            // Two's blob is still the published site's file (a link to the same inode), which is
            // kept as a spare's would be (`StagingReuseTests`): only one's is made again.
            #expect(report.derivativesMade == 1)
            #expect(report.pagesRendered == 1)
            #expect(try site.treeHash() == hash)

            // A file touched but unchanged is re-hashed, found intact and reused.
            let three = try #require(snapshot.photos["three"]?.blobKeys.first)
            let bytes = try Data(contentsOf: images.url(three))
            try FileManager.default.removeItem(at: images.url(three))
            try bytes.write(to: images.url(three))
            #expect(try await site.build().derivativesMade == 0)

            // A state database that is not a database: a fresh state and a full build, same site.
            try Data("not a database".utf8).write(to: StateDatabase.file(in: site.state))
            for suffix in ["-wal", "-shm"] {
                try? FileManager.default.removeItem(atPath: StateDatabase.file(in: site.state).path + suffix)
            }
            let fresh = try await site.build()
            #expect(fresh.photosNew == 5)
            #expect(try site.treeHash() == hash)
        }

        /// The snapshot's tables after a build: photos in manifest order, each photo's blobs among the
        /// image blobs, each page among the page blobs, and `takeBlobs` leaving none behind.
        @Test func snapshotTablesAgreeWithEachOther() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await site.build()
            var snapshot = try site.stateSnapshot()
            #expect(snapshot.photos.values.map(\.id) == ["one", "two", "three", "four", "five"])
            #expect(snapshot.photos["six"] == nil)
            let database = try StateDatabase.open(folder: site.state)
            for photo in snapshot.photos.values {
                #expect(
                    !photo.blobKeys.isEmpty && photo.blobKeys.allSatisfy { snapshot.imageBlobs[$0] != nil },
                    "\(photo.id)")
                #expect(
                    try snapshot.placeholders[photo.thumbnailKey] != nil && database.facts(photo.contentHash) != nil,
                    "\(photo.id)")
            }
            #expect(!snapshot.pages.isEmpty && snapshot.pages.values.allSatisfy { snapshot.pageBlobs[$0.key] != nil })
            // Each table holds its own cache's files (the rows are told apart by their kind).
            let stores = (
                images: BlobStore(folder: BuildState.imagesFolder(cache: site.cache), kind: "images"),
                pages: BlobStore(folder: BuildState.pagesFolder(cache: site.cache), kind: "pages")
            )
            #expect(
                snapshot.imageBlobs.keys.allSatisfy { FileManager.default.fileExists(atPath: stores.images.path($0)) })
            #expect(
                snapshot.pageBlobs.keys.allSatisfy { FileManager.default.fileExists(atPath: stores.pages.path($0)) })
            #expect(Set(snapshot.imageBlobs.keys).isDisjoint(with: snapshot.pageBlobs.keys))
            let blobs = snapshot.takeBlobs()
            #expect(
                blobs.images.count + blobs.pages.count > 0 && snapshot.imageBlobs.isEmpty && snapshot.pageBlobs.isEmpty)

            var table = snapshot.photos
            var moved = try #require(table["two"])
            moved.position = 99
            table.insert(moved)
            #expect(
                table.count == 5 && table.values.map(\.id) == ["one", "two", "three", "four", "five"]
                    && table["two"]?.position == 99)
        }

        @Test func secondBuildIsRefusedWhileTheLockIsHeld() async throws {
            let site = try FixtureSite.make(entries: Array(IncrementalFixtures.five.prefix(1)))
            _ = try await site.build()
            let before = try site.treeHash()
            let lock = try BuildLock.acquire(stateDirectory: site.state, purpose: "test build")
            do {
                _ = try await site.build()
                Issue.record("expected the build to be refused")
            } catch let error as BuildError {
                #expect(error.step == .lock)
                #expect((error.underlying as? StoreError)?.kind == .locked)
                #expect(
                    error.reason.contains(
                        "another galleryssg process (pid \(getpid()), galleryssg test build) is using this site's state"
                    ),
                    "\(error.reason)")
                #expect(error.reason.contains("wait for it to finish"))
            }
            let refused = #expect(throws: StoreError.self) {
                _ = try Maintenance.collectGarbage(try SiteConfig.load(from: site.configURL, environment: [:]))
            }
            #expect(refused?.kind == .locked)
            #expect(try site.treeHash() == before)
            lock.release()
            _ = try await site.build()
        }

        @Test func cacheStatsGarbageCollectionAndClean() async throws {
            let site = try FixtureSite.make(entries: Array(IncrementalFixtures.five.prefix(3)))
            let config = try SiteConfig.load(from: site.configURL, environment: [:])
            _ = try await site.build()
            try site.updateConfig(["images": ["thumbnail": 64, "preview": 120, "widths": [80], "quality": 60]])
            let rebuilt = try await site.build()

            let stats = try Maintenance.cacheStats(config)
            #expect(stats.photos == 3)
            let images = try #require(stats.caches.first { $0.name == "images" })
            // The quality-82 derivatives are no longer used by any photo.
            #expect(images.unreferencedFiles == rebuilt.derivativesMade)
            #expect(stats.lastBuild?.derivativesReused == 3)
            #expect(
                stats.description.contains("last build: photos 0 new, 0 changed, 3 unchanged, 0 removed"), "\(stats)")

            let removed = try Maintenance.collectGarbage(config)
            #expect(removed.first { $0.name == "images" }?.files == rebuilt.derivativesMade)
            let after = try Maintenance.cacheStats(config)
            #expect(after.caches.allSatisfy { $0.unreferencedFiles == 0 })
            let noop = try await site.build()
            #expect(noop.derivativesMade == 0 && noop.pagesRendered == 0)

            let cleaned = try Maintenance.clean(config)
            #expect(cleaned.removed == [site.output.path, site.state.path] && cleaned.kept.isEmpty)
            #expect(!FileManager.default.fileExists(atPath: site.output.path))
            #expect(!FileManager.default.fileExists(atPath: site.state.path))
            #expect(try await site.build().photosNew == 3)
        }
    }
}
