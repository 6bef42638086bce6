#if canImport(Glibc)
    import CRename
    import Foundation
    import GalleryModel
    import GalleryStore
    import Glibc
    import NIOConcurrencyHelpers
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
/// write, once `settle` has made sure galleryssg wrote each of them (the site's `SiteMarker` list
/// names it; anything else is refused or, with `--force`, moved aside, never deleted). The staged
/// site is therefore always exactly this build's files, while an incremental
/// build neither recreates nor deletes tens of thousands of unchanged files (deleting them is
/// what costs most on a busy disk). The spare is hard links, so it costs almost no space.
///
/// A build whose files all turn out to be the published site's own (a no-op) stages nothing at
/// all: while it can, the writer checks each file against the published site instead, and only
/// the first file that differs makes it stage (`LiveSite`, `StagedWriter+Live.swift`).
///
/// One writer is shared by every task of a build; what it changes as they write (the paths
/// written, the folders made) is in thread-safe sets, and everything else is fixed when it begins.
package final class StagedWriter: Sendable {
    package let output: URL
    package let staging: URL
    /// Where the state keeps each site folder's record and file list.
    package let book: SiteBook
    /// `staging`'s path; files are named by joining text, which is much cheaper than `URL`'s
    /// path operations when a build stages tens of thousands of files.
    package let stagingPath: String
    /// Every site-relative path this build wrote, so `commit` can remove the rest of what the
    /// staging folder started with; nil when it started empty (a cold build of 1,000,000 photos
    /// would hold 3,000,000 paths for nothing).
    package let written: PathSet?
    /// What the staging folder held when the build started, listed in the background (from the
    /// moment it is made: a build that keeps the published site makes none).
    package var previous: StagedListing { listing.withLockedValue { $0 } ?? StagedListing(root: nil) }
    let listing: NIOLockedValueBox<StagedListing?>
    /// Whether the staging folder started from an earlier site (else it started empty, and no
    /// file needs checking before it is linked).
    package let reused: Bool
    /// Folders this build made sure exist, so each is made once (in a staging folder that started
    /// empty, before its first file rather than after a failed link).
    package let folders = PathSet()
    /// What `settle` found to remove before the swap: files of the earlier site this build did not
    /// write, the folders that may be left empty, and whether the site has exactly the earlier
    /// site's files (so its file list need not be written again).
    package let settled = NIOLockedValueBox<(files: [String], folders: Set<String>, sameFiles: Bool)>(([], [], false))

    /// The published site while this build may still keep it instead of staging; nil when it stages
    /// from the start.
    let live: LiveSite?
    /// The folder the staging folder is to start from (the spare) when the build keeps the
    /// published site for now: it is renamed when staging begins, if it does.
    let base: String?

    private init(
        output: URL, staging: URL, book: SiteBook, reused: Bool, live: LiveSite? = nil, base: String? = nil
    ) {
        self.output = output
        self.book = book
        self.staging = staging
        stagingPath = staging.path
        listing = NIOLockedValueBox(live == nil ? StagedListing(root: reused ? staging.path : nil) : nil)
        written = reused ? PathSet() : nil
        self.reused = reused
        self.live = live
        self.base = base
    }

    /// Prepares a staging folder for `output`, from the previous site (the spare) when there is one.
    ///
    /// Call `OutputFolder.claim` first: this only checks the output's place, and that the spare is
    /// galleryssg's (it has a marker, or is a site an earlier version built).
    /// - Parameters:
    ///   - book: Where the state keeps the sites' records and file lists.
    ///   - protected: Folders the output must keep clear of (`OutputFolder.checkPlace`).
    ///   - takeOver: Move files galleryssg did not write, in the spare, into `aside` rather than refuse.
    /// - Throws: `OutputError` naming the folder and what to do.
    package static func begin(
        output: URL, book: SiteBook, protecting protected: [OutputFolder.Protected],
        takeOver: Bool = false, aside: URL? = nil
    ) throws -> StagedWriter {
        let output = output.standardizedFileURL
        let path = output.path
        try OutputFolder.checkPlace(output, protecting: protected)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue {
            throw OutputError.notAFolder(path)
        }
        let aside = aside ?? OutputFolder.asideFolder(for: output)
        let parent = output.deletingLastPathComponent()
        try attempt(parent.path) {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        }
        let staging = parent.appendingPathComponent(".\(output.lastPathComponent).staging-\(getpid())")
        // Start from the previous site (the spare), or else from a killed build's staging folder.
        let spare = spareFolder(of: output)
        let spareExists = FileManager.default.fileExists(atPath: spare.path)
        if spareExists { try checkSpare(spare, takeOver: takeOver, aside: aside) }
        let leftovers = leftoverFolders(of: output).filter { $0 != spare.path }
        let base =
            spareExists
            ? spare.path
            : leftovers.first { $0.contains(".staging-") && isFolder($0) }
        for folder in leftovers where folder != base { OutputFolder.clearLeftover(folder, book: book, aside: aside) }
        // A site galleryssg published, with its file list: keep it unless a file differs (`LiveSite`).
        if !takeOver, base != staging.path, let live = LiveSite(output: output, book: book) {
            return StagedWriter(
                output: output, staging: staging, book: book, reused: base != nil, live: live, base: base)
        }
        if let base, base != staging.path, rename(base, staging.path) == 0 {
            try markBuilding(staging, book: book)
            return StagedWriter(output: output, staging: staging, book: book, reused: true)
        }
        if base != staging.path { try? FileManager.default.removeItem(at: staging) }
        try attempt(staging.path) {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        }
        try markBuilding(staging, book: book)
        return StagedWriter(output: output, staging: staging, book: book, reused: base == staging.path)
    }

    /// Refuses (or, taking over, empties into `aside`) a spare that is not galleryssg's: one with no
    /// marker and no `index.html`, such as a folder an earlier version swapped out of the output.
    private static func checkSpare(_ spare: URL, takeOver: Bool, aside: URL) throws {
        let names = try OutputFolder.entries(of: spare)
        let known =
            names.contains(SiteMarker.fileName) || names.contains(SiteMarker.buildingName)
            || names.contains(SiteLayout.home) || names.isEmpty
        guard !known else { return }
        guard takeOver else { throw OutputError.foreignInPrevious(folder: spare.path, names) }
        try OutputFolder.move(names, from: spare, into: aside)
    }

    /// Leaves the `SiteMarker.buildingName` note in a staging folder that has none, saying whether its
    /// files came from a site with no file list (built before lists existed, or whose record the
    /// state no longer has): those files of it the build drops are moved aside, not deleted.
    /// - Throws: `OutputError` when the note cannot be written (a full disk among the causes).
    static func markBuilding(_ staging: URL, book: SiteBook) throws {
        let note = staging.appendingPathComponent(SiteMarker.buildingName).path
        guard !FileManager.default.fileExists(atPath: note) else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
        let adopted = names.contains(SiteLayout.home) && book.listPath(of: staging) == nil
        try attempt(note) {
            try Data((adopted ? "adopted\n" : "").utf8).write(to: URL(fileURLWithPath: note))
        }
    }

    static func spareFolder(of output: URL) -> URL {
        output.deletingLastPathComponent().appendingPathComponent(".\(output.lastPathComponent).spare")
    }

    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Writes a file at a site-relative path inside the staging folder.
    /// - Throws: `OutputError` for unsafe paths or failed writes (a full disk among them).
    package func write(_ data: Data, to relativePath: String) throws {
        let path = try resolve(relativePath)
        if let live, live.holds(data, at: relativePath) { return }
        try stage()
        let target = URL(fileURLWithPath: path)
        written?.insert(relativePath)
        try Self.attempt(target.path) {
            try FileManager.default.createDirectory(
                at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            // Atomic: a new file replaces the name, so a cached blob hard-linked there is never overwritten.
            try data.write(to: target, options: .atomic)
        }
    }

    /// Whether this build staged the file at a site-relative path (rather than the earlier site it started from).
    package func wasWritten(_ relativePath: String) -> Bool {
        try? stage()  // asked by the sealers only, which stage first (`stage`)
        return written?.contains(relativePath)
            ?? FileManager.default.fileExists(atPath: stagingPath + "/" + relativePath)
    }

    /// Takes back a file this build staged: it is no longer part of the site.
    package func remove(_ relativePath: String) throws {
        let target = try resolve(relativePath)
        try stage()
        written?.remove(relativePath)
        try Self.attempt(target) {
            guard unlink(target) == 0 || errno == ENOENT else {
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
        }
    }

    /// Stages a file made elsewhere in the staging folder (by `rename`, so on the same file system).
    package func move(_ file: URL, to relativePath: String) throws {
        let target = try resolve(relativePath)
        try stage()
        written?.insert(relativePath)
        try Self.attempt(target) {
            try FileManager.default.createDirectory(atPath: Self.parent(of: target), withIntermediateDirectories: true)
            guard rename(file.path, target) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        }
    }

    package static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The staging path of a site-relative path, which must stay inside the site.
    package func resolve(_ relativePath: String) throws -> String {
        guard Self.staysInside(relativePath) else {
            throw OutputError(.unsafePath, path: relativePath, "unsafe output path refused")
        }
        return stagingPath + "/" + relativePath
    }

    /// Whether a site-relative path names something inside the site: not absolute, and no part of
    /// it empty, `.`, `..` or holding a NUL byte. One pass over its bytes: a no-op build asks this
    /// of every file of the site (splitting it and `contains` on each part, through Foundation, was
    /// an eighth of a 10,000-photo no-op's instructions).
    package static func staysInside(_ relativePath: String) -> Bool {
        var partLength = 0
        var dots = 0  // how many of the part's bytes are "."
        for byte in relativePath.utf8 {
            switch byte {
            case UInt8(ascii: "/"):
                guard partLength > 0, dots != partLength || dots > 2 else { return false }
                partLength = 0
                dots = 0
                continue
            case 0:
                return false
            case UInt8(ascii: "."):
                dots += 1
            default:
                break
            }
            partLength += 1
        }
        return partLength > 0 && (dots != partLength || dots > 2)
    }

    /// Staging and old folders left by builds that were killed, and the spare.
    static func leftoverFolders(of output: URL) -> [String] {
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
    static func exchange(_ first: String, _ second: String) -> Bool {
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
            switch WriteFailure(error) {
            case .diskFull?:
                throw OutputError(.diskFull, path: path, WriteFailure.diskFullAdvice(path))
            case .notWritable?:
                throw OutputError(
                    .notWritable, path: path, "not writable; check the folder's permissions (the previous site is kept)"
                )
            case nil:
                throw OutputError(.writeFailed, path: path, error.localizedDescription)
            }
        }
    }
}
