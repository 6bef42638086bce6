#if canImport(Glibc)
import CRename
import Foundation
import GalleryModel
import GalleryStore
import Glibc
#endif

/// Writes the whole site into a staging folder beside the output, then swaps it in.
///
/// Only this type writes to the output folder. A build that fails, or is killed, never touches the
/// published site: it leaves at most a `.NAME.staging-PID` folder, which the next build reuses or
/// removes. On Linux the swap is one `renameat2(RENAME_EXCHANGE)` call, so there is no instant at
/// which the output folder is missing; elsewhere it falls back to two renames.
///
/// The site swapped out is not deleted but kept as `.NAME.spare`, and the next build starts its
/// staging folder from it: files already there that are the right file (the same inode as the
/// cached blob) are kept, others are replaced, and `commit` removes every file this build did not
/// write. The staged site is therefore always exactly this build's files, while an incremental
/// build neither recreates nor deletes tens of thousands of unchanged files (deleting them is
/// what costs most on a busy disk). The spare is hard links, so it costs almost no space.
///
/// One writer is shared by every task of a build; what it changes as they write (the paths
/// written, the folders made) is in thread-safe sets, and everything else is fixed when it begins.
public final class StagedWriter: Sendable {
    public let output: URL
    public let staging: URL
    /// `staging`'s path; files are named by joining text, which is much cheaper than `URL`'s
    /// path operations when a build stages tens of thousands of files.
    package let stagingPath: String
    /// Every site-relative path this build wrote, so `commit` can remove the rest of what the
    /// staging folder started with; nil when it started empty (a cold build of 1,000,000 photos
    /// would hold 3,000,000 paths for nothing).
    package let written: PathSet?
    /// What the staging folder held when the build started, listed in the background.
    private let previous: StagedListing
    /// Whether the staging folder started from an earlier site (else it started empty, and no
    /// file needs checking before it is linked).
    package let reused: Bool
    /// Folders this build made sure exist, so each is made once (in a staging folder that started
    /// empty, before its first file rather than after a failed link).
    package let folders = PathSet()

    private init(output: URL, staging: URL, reused: Bool) {
        self.output = output
        self.staging = staging
        stagingPath = staging.path
        previous = StagedListing(root: reused ? staging.path : nil)
        written = reused ? PathSet() : nil
        self.reused = reused
    }

    /// Prepares a fresh staging folder for `output`.
    /// - Parameter protected: Folders the output must never replace or contain (the site's own
    ///   folder, its photos, its templates), so a mistyped `output` cannot delete them.
    /// - Throws: `OutputError` naming the folder and what to do.
    public static func begin(output: URL, protecting protected: [URL]) throws -> StagedWriter {
        let output = output.standardizedFileURL
        let path = output.path
        try check(output, protecting: protected)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw OutputError(path: path, "exists and is not a folder; move it away or choose another \"output\"")
        }
        let parent = output.deletingLastPathComponent()
        try attempt(parent.path) { try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true) }
        let staging = parent.appendingPathComponent(".\(output.lastPathComponent).staging-\(getpid())")
        // Start from the previous site (the spare), or else from a killed build's staging folder.
        let spare = spareFolder(of: output)
        let leftovers = leftoverFolders(of: output).filter { $0 != spare.path }
        let base = FileManager.default.fileExists(atPath: spare.path) ? spare.path
            : leftovers.first { $0.contains(".staging-") && isFolder($0) }
        for folder in leftovers where folder != base { try? FileManager.default.removeItem(atPath: folder) }
        if let base, base != staging.path, rename(base, staging.path) == 0 {
            return StagedWriter(output: output, staging: staging, reused: true)
        }
        if base != staging.path { try? FileManager.default.removeItem(at: staging) }
        try attempt(staging.path) { try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true) }
        return StagedWriter(output: output, staging: staging, reused: base == staging.path)
    }

    private static func spareFolder(of output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).spare")
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Refuses an output folder that is, or contains, a folder the site needs.
    private static func check(_ output: URL, protecting protected: [URL]) throws {
        let path = output.standardizedFileURL.path
        for folder in protected.map(\.standardizedFileURL.path) {
            if folder == path || folder.hasPrefix(path.hasSuffix("/") ? path : path + "/") {
                throw OutputError(path: path, "the output folder would replace \(folder); choose another \"output\"")
            }
        }
    }

    /// Removes a published site and any staging folders killed builds left beside it (`galleryssg clean`).
    ///
    /// Only a folder that looks like a galleryssg site (it has an `index.html`, or is empty) is
    /// removed, so a mistyped `output` cannot delete someone's documents.
    /// - Returns: Whether there was a site to remove.
    /// - Throws: `OutputError` naming the folder.
    public static func removeSite(output: URL, protecting protected: [URL]) throws -> Bool {
        let output = output.standardizedFileURL
        try check(output, protecting: protected)
        removeLeftovers(of: output)
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: output.path) else { return false }
        let names = (try? fileManager.contentsOfDirectory(atPath: output.path)) ?? []
        guard names.isEmpty || names.contains(SiteLayout.home) else {
            throw OutputError(path: output.path, "does not look like a galleryssg site (no index.html); remove it yourself if you mean to")
        }
        try attempt(output.path) { try fileManager.removeItem(at: output) }
        return true
    }

    /// Writes a file at a site-relative path inside the staging folder.
    /// - Throws: `OutputError` for unsafe paths or failed writes (a full disk among them).
    public func write(_ data: Data, to relativePath: String) throws {
        let target = URL(fileURLWithPath: try resolve(relativePath))
        written?.insert(relativePath)
        try Self.attempt(target.path) {
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Atomic: a new file replaces the name, so a cached blob hard-linked there is never overwritten.
            try data.write(to: target, options: .atomic)
        }
    }

    /// Swaps the staging folder in as the output and removes the previous site.
    ///
    /// Waits (suspended) for the listing of what the staging folder started with, when it is not done yet.
    /// - Throws: `OutputError`; the previous site is still in place when it does.
    public func commit() async throws {
        let fileManager = FileManager.default
        try await removeUnwritten()
        guard fileManager.fileExists(atPath: output.path) else {
            try Self.attempt(output.path) { try fileManager.moveItem(at: staging, to: output) }
            return
        }
        if Self.exchange(staging.path, output.path) {
            // The staging name now holds the previous site: keep it as the next build's starting point.
            let spare = Self.spareFolder(of: output)
            try? fileManager.removeItem(at: spare)
            if rename(staging.path, spare.path) != 0 { try? fileManager.removeItem(at: staging) }
            return
        }
        let old = output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).old-\(getpid())")
        try? fileManager.removeItem(at: old)
        try Self.attempt(output.path) { try fileManager.moveItem(at: output, to: old) }
        do {
            try fileManager.moveItem(at: staging, to: output)
        } catch {
            try? fileManager.moveItem(at: old, to: output)
            throw OutputError(path: output.path, "could not publish the new site: \(error.localizedDescription)")
        }
        try? fileManager.removeItem(at: old)
    }

    /// Keeps the staging folder of a failed build as the next build's starting point (or removes it);
    /// the output is untouched.
    public func abort() {
        let spare = Self.spareFolder(of: output)
        if FileManager.default.fileExists(atPath: spare.path) || rename(staging.path, spare.path) != 0 {
            try? FileManager.default.removeItem(at: staging)
        }
    }

    /// Removes every file in the staging folder that this build did not write (what a spare or a
    /// killed build's folder held beyond this build's site), then the folders that left empty.
    private func removeUnwritten() async throws {
        guard let written else { return }   // nothing was there to begin with
        let listing = await previous.listing
        var emptied = Set(listing.emptyFolders)
        try listing.forEachFile { path in
            guard !written.contains(path) else { return }
            guard unlink(stagingPath + "/" + path) == 0 || errno == ENOENT else {
                throw OutputError(path: stagingPath + "/" + path, "could not remove a stale file: \(String(cString: strerror(errno)))")
            }
            emptied.insert(Self.parent(of: path))
        }
        // Deepest first; a folder that is removed may leave its parent empty too.
        for folder in emptied.sorted(by: { ($0.count, $0) > ($1.count, $1) }) {
            var current = folder
            while !current.isEmpty, rmdir(stagingPath + "/" + current) == 0 {
                current = Self.parent(of: current)
            }
        }
    }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The staging path of a site-relative path, which must stay inside the site.
    package func resolve(_ relativePath: String) throws -> String {
        let parts = relativePath.split(separator: "/", omittingEmptySubsequences: false)
        guard !relativePath.hasPrefix("/"), !parts.isEmpty,
              parts.allSatisfy({ !$0.isEmpty && $0 != "." && $0 != ".." && !$0.contains("\0") }) else {
            throw OutputError(path: relativePath, "unsafe output path refused")
        }
        return stagingPath + "/" + relativePath
    }

    /// Removes staging, old and spare folders beside the output (`galleryssg clean`).
    private static func removeLeftovers(of output: URL) {
        for folder in leftoverFolders(of: output) { try? FileManager.default.removeItem(atPath: folder) }
    }

    /// Staging and old folders left by builds that were killed, and the spare.
    private static func leftoverFolders(of output: URL) -> [String] {
        let parent = output.deletingLastPathComponent()
        let name = output.lastPathComponent
        let prefixes = [".\(name).staging-", ".\(name).old-", ".\(name).spare"]
        let names = (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        return names.filter { entry in prefixes.contains(where: entry.hasPrefix) }
            .map { parent.appendingPathComponent($0).path }
            .sorted()
    }

    /// Atomically exchanges two paths with Linux's `renameat2(RENAME_EXCHANGE)` (declared in
    /// CRename). Returns false where unsupported, e.g. a file system without it.
    private static func exchange(_ first: String, _ second: String) -> Bool {
        #if os(Linux)
        return galleryssg_exchange(first, second) == 0
        #else
        return false
        #endif
    }

    package static func attempt(_ path: String, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch {
            let nsError = error as NSError
            let posix = (nsError.userInfo[NSUnderlyingErrorKey] as? NSError)?.code ?? 0
            if posix == Int(ENOSPC) || nsError.code == NSFileWriteOutOfSpaceError {
                throw OutputError(path: path, "the disk is full; free some space and build again (the previous site is kept)")
            }
            if posix == Int(EACCES) || posix == Int(EROFS) || nsError.code == NSFileWriteNoPermissionError {
                throw OutputError(path: path, "not writable; check the folder's permissions (the previous site is kept)")
            }
            throw OutputError(path: path, error.localizedDescription)
        }
    }
}

/// The output folder could not be written.
public struct OutputError: Error, CustomStringConvertible, Sendable {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }

    package init(path: String, _ reason: String) {
        self.path = path
        self.reason = reason
    }
}
