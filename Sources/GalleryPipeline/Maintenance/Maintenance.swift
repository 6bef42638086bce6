import Foundation
import GalleryConfig
import GalleryFetch
import GalleryKeys
import GalleryModel
import GalleryOutput
import GalleryStore

/// `galleryssg clean`, `galleryssg cache stats` and `galleryssg cache gc`: work on a site's state
/// folder and output outside of a build. Clean and gc take the build lock, so they never run
/// beside a build.
public enum Maintenance {
    /// One cache folder: its files and bytes, and how many of them nothing refers to.
    public struct CacheUsage: Sendable, Equatable {
        /// `images` (derivatives, published originals), `pages` or `originals` (downloads).
        public var name: String
        public var files = 0
        public var bytes = 0
        package var unreferencedFiles = 0
        var unreferencedBytes = 0
    }

    /// What `cache stats` prints.
    public struct CacheStats: Sendable, CustomStringConvertible {
        package var stateFolder: String
        package var photos = 0
        package var caches: [CacheUsage] = []
        /// Counts of the last build, if any.
        package var lastBuild: BuildCounts?
        /// Counts summed over the remembered builds (at most `StateDatabase.historyLength`).
        package var total = BuildCounts()
        package var builds = 0

        public var description: String {
            var lines = ["state: \(stateFolder)", "photos: \(photos)"]
            for cache in caches {
                lines.append(
                    "\(cache.name): \(cache.files) files, \(ByteCount.text(cache.bytes))"
                        + (cache.unreferencedFiles > 0
                            ? " (\(cache.unreferencedFiles) unreferenced, \(ByteCount.text(cache.unreferencedBytes)); galleryssg cache gc removes them)"
                            : ""))
            }
            if let last = lastBuild {
                lines.append(
                    "last build: photos \(last.photosNew) new, \(last.photosChanged) changed, \(last.photosUnchanged) unchanged, "
                        + "\(last.photosRemoved) removed; images \(last.derivativesMade) made, \(last.derivativesReused) reused "
                        + "(hit rate \(Self.rate(last.derivativesReused, last.derivativesMade))); pages \(last.pagesRendered) rendered, "
                        + "\(last.pagesReused) reused (hit rate \(Self.rate(last.pagesReused, last.pagesRendered)))")
                lines.append(
                    "last \(builds) builds: images hit rate \(Self.rate(total.derivativesReused, total.derivativesMade)), "
                        + "pages hit rate \(Self.rate(total.pagesReused, total.pagesRendered))")
            } else {
                lines.append("no build has been recorded yet")
            }
            return lines.joined(separator: "\n")
        }

        package static func rate(_ hits: Int, _ misses: Int) -> String {
            hits + misses == 0 ? "n/a" : String(format: "%.1f %%", 100 * Double(hits) / Double(hits + misses))
        }
    }

    /// Counts, sizes and hit rates of a site's caches.
    /// - Throws: `StoreError` when the state cannot be read.
    public static func cacheStats(_ config: SiteConfig) throws -> CacheStats {
        var stats = CacheStats(stateFolder: config.stateDirectory.path)
        guard FileManager.default.fileExists(atPath: StateDatabase.file(in: config.stateDirectory).path) else {
            return stats
        }
        let database = try openState(config)
        let references = try database.references()
        stats.photos = references.photos
        stats.caches = survey(config.cacheDirectory, references: references).map(\.usage)
        let builds = try database.recentBuilds()
        stats.lastBuild = builds.first?.counts
        stats.builds = builds.count
        for (_, counts) in builds {
            stats.total.derivativesMade += counts.derivativesMade
            stats.total.derivativesReused += counts.derivativesReused
            stats.total.pagesRendered += counts.pagesRendered
            stats.total.pagesReused += counts.pagesReused
        }
        return stats
    }

    /// Removes every cached file nothing in the state refers to: derivatives of settings no longer
    /// used, pages of old builds, downloads of photos no longer listed, and files killed builds left.
    /// In a cache shared with images-only builds that is also their work this site has not built
    /// yet, so it must not run while they do.
    /// - Returns: What was removed, per cache.
    /// - Throws: `StoreError` (including when a build holds the lock).
    public static func collectGarbage(_ config: SiteConfig) throws -> [CacheUsage] {
        let lock = try BuildLock.acquire(stateDirectory: config.stateDirectory, purpose: "cache gc")
        defer { lock.release() }
        let database = try openState(config)
        let references = try database.references()
        var removed: [CacheUsage] = []
        for (usage, orphans) in survey(config.cacheDirectory, references: references) {
            for file in orphans { try? FileManager.default.removeItem(at: file) }
            removed.append(CacheUsage(name: usage.name, files: usage.unreferencedFiles, bytes: usage.unreferencedBytes))
        }
        try database.forget(blobKeys: try database.recordedBlobKeys().filter { !references.blobKeys.contains($0) })
        return removed
    }

    /// Removes the site's output folder and its state folder (`galleryssg clean`). A cache folder
    /// outside the state folder (`cache`) is left alone: other machines may share it. In the output
    /// and the spare, only the files galleryssg wrote are removed (`OutputFolder.removeSite`).
    /// - Returns: The folders removed, and a sentence for each folder kept with what is left in it.
    /// - Throws: `StoreError` or `OutputError`.
    public static func clean(_ config: SiteConfig) throws -> (removed: [String], kept: [String]) {
        let lock = try BuildLock.acquire(stateDirectory: config.stateDirectory, purpose: "clean")
        defer { lock.release() }
        var removed: [String] = []
        let site = try OutputFolder.removeSite(
            output: config.output, book: config.siteBook, protecting: config.protectedFolders)
        if site.removed { removed.append(config.output.path) }
        let state = config.stateDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
        for name in names where name != "lock" {
            do {
                try FileManager.default.removeItem(at: state.appendingPathComponent(name))
            } catch {
                throw StoreError.writing(state.appendingPathComponent(name).path, error)
            }
        }
        try? FileManager.default.removeItem(at: lock.file)
        try? FileManager.default.removeItem(at: state)
        removed.append(state.path)
        return (removed, site.kept)
    }

    /// Every cache folder's usage, with the files nothing refers to.
    private static func survey(_ cache: URL, references: StateDatabase.References) -> [(
        usage: CacheUsage, orphans: [URL]
    )] {
        var downloads = Set<String>()
        for location in references.locations where ImageLocation.isRemote(stored: location) {
            if let url = URL(string: location) { downloads.insert(DownloadCache.key(url)) }
        }
        let folders: [(String, URL, (String) -> Bool)] = [
            ("images", BuildState.imagesFolder(cache: cache), { references.blobKeys.contains($0) }),
            ("pages", BuildState.pagesFolder(cache: cache), { references.blobKeys.contains($0) }),
            (
                "originals", BuildState.originalsFolder(cache: cache),
                { name in
                    let stem = (name as NSString).deletingPathExtension
                    return (name.hasSuffix(".bin") || name.hasSuffix(".json")) && downloads.contains(stem)
                }
            )
        ]
        return folders.map { name, folder, isReferenced in
            var usage = CacheUsage(name: name)
            var orphans: [URL] = []
            let root = folder.standardizedFileURL.path
            let walker = FileManager.default.enumerator(atPath: root)
            while let relative = walker?.nextObject() as? String {
                // Only files named as this cache names its own; anything else is someone else's.
                guard isCacheFile(relative, sharded: name != "originals"),
                    let stamp = FileStamp.of(root + "/" + relative)
                else { continue }
                let file = URL(fileURLWithPath: root + "/" + relative)
                usage.files += 1
                usage.bytes += stamp.size
                if !isReferenced(file.lastPathComponent) {
                    usage.unreferencedFiles += 1
                    usage.unreferencedBytes += stamp.size
                    orphans.append(file)
                }
            }
            return (usage, orphans)
        }
    }

    /// Whether a path inside a cache folder is one galleryssg makes there: `ab/abcdef…` (64 hex
    /// digits, under their first two) in `images` and `pages`, `abcdef….bin` or `.json` in
    /// `originals`, or either with the `.tmp-PID-N` suffix of a write a killed build left.
    static func isCacheFile(_ relative: String, sharded: Bool) -> Bool {
        var name = Substring(relative)
        if sharded {
            let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0].count == 2, parts[1].hasPrefix(parts[0]) else { return false }
            name = parts[1]
        } else if relative.contains("/") {
            return false
        }
        if let temporary = name.range(of: ".tmp-") {
            let tail = name[temporary.upperBound...].split(separator: "-", omittingEmptySubsequences: false)
            guard tail.count == 2, tail.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) else { return false }
            name = name[..<temporary.lowerBound]
        }
        if !sharded {
            guard name.hasSuffix(".bin") || name.hasSuffix(".json") else { return false }
            name = name[..<(name.lastIndex(of: ".") ?? name.endIndex)]
        }
        return name.count == 64 && name.allSatisfy { $0.isHexDigit && !$0.isUppercase }
    }

    /// The state database as it is: a damaged one is neither set aside nor replaced by a fresh one,
    /// which would make every cached file look unused to `collectGarbage`.
    /// - Throws: `StoreError` naming a damaged file and what the next build does with it.
    private static func openState(_ config: SiteConfig) throws -> StateDatabase {
        do {
            return try StateDatabase.open(folder: config.stateDirectory, recover: false)
        } catch  where StateDatabase.isDamage(error) {
            throw StoreError.damaged(
                StateDatabase.file(in: config.stateDirectory).path, reason: StateDatabase.reason(error))
        }
    }
}
