import Foundation
import GRDB
import GalleryConfig
import GalleryPipeline
import GalleryStore
import Synchronization
import Testing

/// A build that recovers by itself: a damaged state database is kept aside and the build goes on
/// from a fresh state, unless it holds `--offline`'s manifest.
extension LoadSensitive {
    @Suite("A damaged state database", .serialized)
    struct StateRecoveryTests {
        /// How the state database is damaged between two builds.
        enum Damage: String, CaseIterable, Sendable {
            /// The file replaced by bytes that are no database.
            case garbage
            /// The pages of the `blob` table (which a build first reads after it opened the state)
            /// overwritten, the rest intact.
            case scribbled
            /// The file cut to half its pages.
            case truncated
        }

        /// Builds and returns the report and the warnings it gave.
        static func build(_ site: FixtureSite, offline: Bool = false) async throws -> (BuildReport, [String]) {
            let warnings = Mutex<[String]>([])
            let report = try await Build(
                config: try SiteConfig.load(from: site.configURL, environment: [:]),
                options: BuildOptions(jobs: 2, offline: offline),
                progress: { event in
                    if case .warning(let text) = event { warnings.withLock { $0.append(text) } }
                }
            ).run()
            return (report, warnings.withLock { $0 })
        }

        /// Damages the database of a state folder whose builds are over: its write-ahead log is
        /// first folded into the file, so the damaged pages are the ones SQLite reads.
        /// - Returns: The bytes that make the file damaged, and where they are: the whole file, or
        ///   the scribbled page (the pages SQLite writes before it finds the damage change the rest).
        @discardableResult
        static func damage(_ file: URL, _ damage: Damage) throws -> (bytes: Data, range: Range<Int>) {
            let queue = try DatabaseQueue(path: file.path)
            let (pageSize, blobRoot) = try queue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)")
                return (
                    try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 4096,
                    try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'blob'") ?? 0
                )
            }
            try queue.close()
            var bytes = try Data(contentsOf: file)
            switch damage {
            case .garbage:
                bytes = Data((0..<bytes.count).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) })
            case .scribbled:
                #expect(blobRoot > 1 && blobRoot * pageSize <= bytes.count, "\(blobRoot)")
                let start = (blobRoot - 1) * pageSize
                bytes.replaceSubrange(start..<start + pageSize, with: Data(repeating: 0xA5, count: pageSize))
            case .truncated:
                bytes = bytes.prefix(bytes.count / pageSize / 2 * pageSize)
            }
            try bytes.write(to: file)
            guard damage == .scribbled else { return (bytes, 0..<bytes.count) }
            let page = (blobRoot - 1) * pageSize..<blobRoot * pageSize
            return (bytes[page], page)
        }

        /// Whether `file` still holds the damage `damage` made.
        static func holds(_ file: URL, _ damage: (bytes: Data, range: Range<Int>)) throws -> Bool {
            let bytes = try Data(contentsOf: file)
            return bytes.count >= damage.range.upperBound && bytes[damage.range] == damage.bytes
        }

        @Test(arguments: Damage.allCases)
        func isKeptAsideAndTheBuildGoesOnFromAFreshState(_ damage: Damage) async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            _ = try await Self.build(site)
            let published = try site.treeHash()
            let file = StateDatabase.file(in: site.state)
            let damaged = try Self.damage(file, damage)

            let (report, warnings) = try await Self.build(site)
            #expect(report.photosPublished == 5)
            #expect(try site.treeHash() == published)
            let kept = try FileManager.default.contentsOfDirectory(atPath: site.state.path).filter {
                $0.hasPrefix("state.sqlite.damaged-")
            }
            let name = try #require(kept.first { !$0.hasSuffix("-wal") && !$0.hasSuffix("-shm") }, "\(kept)")
            #expect(name.count == "state.sqlite.damaged-YYYYMMDD-HHMMSS".count, "\(name)")
            #expect(try Self.holds(site.state.appendingPathComponent(name), damaged))
            let warning = try #require(warnings.first { $0.contains("the state database is damaged") }, "\(warnings)")
            #expect(warning.hasPrefix(file.path + ": "), "\(warning)")
            #expect(warning.contains("kept as \(site.state.appendingPathComponent(name).path)"), "\(warning)")
            #expect(warning.contains("fresh state"))
            // The fresh state works: the next build finds everything unchanged, and warns no more.
            let (next, quiet) = try await Self.build(site)
            #expect(next.photosUnchanged == 5 && next.derivativesMade == 0)
            #expect(quiet.isEmpty, "\(quiet)")
        }

        /// A database that holds the manifest `--offline` builds a remote source from is left in place:
        /// the build stops, naming the file, what would be lost and the command that recovers.
        @Test func holdingTheOfflineManifestStopsTheOfflineBuild() async throws {
            let remote = CrashSafetyTests.Remote(count: 3, title: "Photo")
            try await FixtureServer.with({ request, _ in try await remote.reply(request) }) { base, _ in
                let site = try CrashSafetyTests.site(base)
                _ = try await Self.build(site)
                let file = StateDatabase.file(in: site.state)
                let damaged = try Self.damage(file, .scribbled)
                do {
                    _ = try await Self.build(site, offline: true)
                    Issue.record("expected the offline build to stop")
                } catch let error as BuildError {
                    #expect(error.reason.hasPrefix(file.path + ": the state database is damaged"), "\(error)")
                    #expect(error.reason.contains("holds the last manifest fetched from manifest http://127.0.0.1:"))
                    #expect(error.reason.contains("Run galleryssg build without --offline"), "\(error)")
                }
                #expect(try Self.holds(file, damaged))
                // Online, nothing is lost: the file is kept aside and the manifest fetched again.
                let (report, warnings) = try await Self.build(site)
                #expect(report.photosPublished == 3)
                #expect(warnings.contains { $0.contains("the state database is damaged") }, "\(warnings)")
            }
        }
    }
}
