#if canImport(Glibc)
    import Foundation
    import GalleryKeys
    import GalleryModel
    import GalleryStore
    import Glibc
    import NIOConcurrencyHelpers
#endif

/// The published site, while a build may keep it as it is instead of staging a copy of it.
///
/// A build that changes nothing would otherwise make a staging folder of the whole site (at
/// 1,000,000 photos, a million folders and three million links) only to swap in the same files.
/// So a build of a site galleryssg published begins by checking each file it would stage against
/// the published one instead: the same inode as the cached blob (a link), the size and time the
/// state recorded (a file `holds` finds), or the same bytes (a file written). Each file that
/// matches is noted (`kept`). The first that does not makes the writer stage as it always did
/// (`StagedWriter.stage`), and the files noted so far are linked from the published site into the
/// staging folder, so the staged site is exactly the one a build that staged from the start makes.
///
/// At the end (`StagedWriter.settle`) the noted files must be exactly those of the published site's
/// file list (in the state's `SiteBook`), compared by count and two sums of hashes of the paths: a
/// file the build would no longer publish, or one the user deleted, makes it stage too. Only then
/// is the published site kept, and only its marker is written again. Nothing is removed or
/// replaced in it, so "a failed build leaves the previous site" holds; a file someone added to it
/// by hand stays where it is, as it would in the spare after a staged build.
final class LiveSite: Sendable {
    /// The output folder's path.
    let root: String
    /// The published site's file list (`SiteBook.listPath`).
    let list: String

    enum Phase { case live, staging, staged }

    struct State {
        /// `live` while files are checked against the published site; `staging` while the files
        /// kept so far are linked into the staging folder; then `staged`.
        var phase = Phase.live
        /// Why staging failed, so every task that waited for it fails too.
        var failure: OutputError?
        /// Files kept as the published site holds them, site-relative, each ending with a NUL byte.
        var kept = ChunkedPaths()
        /// Files `holds` found in the published site, until they are kept.
        var held = Set<String>()
        var count = 0
        var sums: (UInt64, UInt64) = (0, 0)
    }

    let state = NIOLockedValueBox(State())
    /// Held while the build begins staging, so tasks that need the staging folder wait for it.
    let staging = NIOLock()

    /// The index pages of the published site's bare folders (`FolderIndexes`), which the build does
    /// not write until it commits: its list names them, the files kept do not.
    let folderIndexes: Set<String>

    /// The published site at `output`, if galleryssg published it there with its file list.
    init?(output: URL, book: SiteBook) {
        root = output.path
        guard let list = book.listPath(of: output) else { return nil }
        self.list = list
        folderIndexes = Set(
            (book.record(of: output)?.folderIndexes ?? []).map {
                $0.isEmpty ? SiteLayout.folderIndex : $0 + "/" + SiteLayout.folderIndex
            })
    }

    /// Whether the build has begun staging (no file is noted any more).
    var isStaged: Bool { state.withLockedValue { $0.phase != .live } }

    /// Notes a file the published site holds as this build's; false once the build stages.
    func record(_ path: String) -> Bool {
        state.withLockedValue { state in
            guard state.phase == .live else { return false }
            state.kept.append(path)
            state.count += 1
            let (first, second) = Self.hashes(path)
            state.sums = (state.sums.0 &+ first, state.sums.1 &+ second)
            return true
        }
    }

    /// Notes a file `holds` found in the published site, to be kept by `keep`; false once the build stages.
    func hold(_ path: String) -> Bool {
        state.withLockedValue { state in
            guard state.phase == .live else { return false }
            state.held.insert(path)
            return true
        }
    }

    /// Keeps a file `holds` found: true when it is noted, false when it was found in the published
    /// site but the build stages now (it must be staged), nil when it was not found there.
    func keep(_ path: String) -> Bool? {
        let wasHeld = state.withLockedValue { $0.held.remove(path) != nil }
        guard wasHeld else { return nil }
        return record(path)
    }

    /// Whether the published site holds a regular file of exactly these bytes at `path`, noted if so.
    func holds(_ data: Data, at path: String) -> Bool {
        guard !isStaged else { return false }
        let file = open(root + "/" + path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) == data.count else {
            return false
        }
        var bytes = [UInt8](repeating: 0, count: data.count)
        let count = bytes.withUnsafeMutableBytes { read(file, $0.baseAddress, data.count) }
        return count == data.count && bytes.elementsEqual(data) && record(path)
    }

    /// Whether the files noted are exactly those of the published site's file list.
    func matchesList() -> Bool {
        var count = 0
        var sums: (UInt64, UInt64) = (0, 0)
        let read = ChunkedPaths.forEach(inFile: list) { path in
            guard !SiteMarker.names.contains(path), !folderIndexes.contains(path) else { return }
            count += 1
            let (first, second) = Self.hashes(path)
            sums = (sums.0 &+ first, sums.1 &+ second)
        }
        return read && state.withLockedValue { $0.count == count && $0.sums == sums && $0.held.isEmpty }
    }

    /// Two hashes of a path, seeded afresh by each process, so the sums cannot be made to collide.
    private static func hashes(_ path: String) -> (UInt64, UInt64) {
        var first = Hasher()
        var second = Hasher()
        second.combine(0x5eed as UInt16)
        first.combine(path)
        second.combine(path)
        return (UInt64(bitPattern: Int64(first.finalize())), UInt64(bitPattern: Int64(second.finalize())))
    }
}

/// The paths a build kept, in chunks of 1 MB, so the buffer never doubles (about 90 MB at
/// 1,000,000 photos).
struct ChunkedPaths {
    private var chunks: [[UInt8]] = []
    static let chunkSize = 1 << 20

    mutating func append(_ path: String) {
        let length = path.utf8.count + 1
        if chunks.isEmpty || chunks[chunks.count - 1].count + length > Self.chunkSize {
            chunks.append([])
            chunks[chunks.count - 1].reserveCapacity(max(Self.chunkSize, length))
        }
        chunks[chunks.count - 1].append(contentsOf: path.utf8)
        chunks[chunks.count - 1].append(0)
    }

    func forEach(_ body: (String) throws -> Void) rethrows {
        for chunk in chunks {
            var start = 0
            while let end = chunk[start...].firstIndex(of: 0) {
                try body(String(decoding: chunk[start..<end], as: UTF8.self))
                start = end + 1
            }
        }
    }

    /// Calls `body` with each path of a file list (NUL after each), read 1 MB at a time; false when
    /// the file cannot be read.
    static func forEach(inFile path: String, _ body: (String) -> Void) -> Bool {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return false }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: chunkSize)
        var pending: [UInt8] = []
        while true {
            let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, chunkSize) }
            guard count >= 0 else { return false }
            if count == 0 { return pending.isEmpty }
            var start = 0
            while let end = buffer[start..<count].firstIndex(of: 0) {
                if pending.isEmpty {
                    body(String(decoding: buffer[start..<end], as: UTF8.self))
                } else {
                    pending += buffer[start..<end]
                    body(String(decoding: pending, as: UTF8.self))
                    pending.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            pending += buffer[start..<count]
        }
    }
}

extension StagedWriter {
    /// Makes the build stage from now on, if it kept the published site so far: the staging folder
    /// starts from the spare (or empty), and every file kept so far is linked into it from the
    /// published site. The sealers call it first: they rewrite staged files.
    /// - Throws: `OutputError`; the published site is untouched.
    package func stage() throws {
        guard let live, live.state.withLockedValue({ $0.phase != .staged }) else { return }
        try live.staging.withLock {
            let (phase, failure) = live.state.withLockedValue { ($0.phase, $0.failure) }
            if let failure { throw failure }
            guard phase != .staged else { return }
            do {
                // No file is noted after this; tasks that need the staging folder wait for the lock.
                let kept = live.state.withLockedValue { state in
                    state.phase = .staging
                    return state.kept
                }
                try openStaging()
                try kept.forEach { try stagePublished($0) }
                live.state.withLockedValue { state in
                    state.phase = .staged
                    state.kept = ChunkedPaths()
                }
            } catch {
                let failure =
                    error as? OutputError ?? OutputError.stagingFailed(stagingPath, error)
                live.state.withLockedValue { $0.failure = failure }
                throw failure
            }
        }
    }

    /// Whether this build kept the published site as it was (nothing was staged).
    var keptPublishedSite: Bool { live.map { !$0.isStaged } ?? false }

    /// Where the file at a site-relative path is to be read: the published site's, while the build keeps it.
    package func readable(_ relativePath: String) throws -> String {
        let path = try resolve(relativePath)
        guard let live, !live.isStaged else { return path }
        return live.root + "/" + relativePath
    }

    /// The staging folder, from the spare when there is one (`begin` chose it).
    private func openStaging() throws {
        if let base, rename(base, stagingPath) == 0 {
        } else {
            try? FileManager.default.removeItem(at: staging)
            try Self.attempt(stagingPath) {
                try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
            }
        }
        try Self.markBuilding(staging, book: book)
        listing.withLockedValue { $0 = StagedListing(root: reused ? stagingPath : nil) }
    }

    /// Links the published site's file at a site-relative path into the staging folder.
    func stagePublished(_ relativePath: String) throws {
        guard let live else { return }
        let published = live.root + "/" + relativePath
        guard let stamp = FileStamp.of(published, followingLinks: false) else {
            throw OutputError.vanished(published)
        }
        try linkStaged(
            BlobFile(path: published, identity: stamp.identity), to: relativePath, at: try resolve(relativePath))
    }

    /// Records the published site this build kept anew (its file list stands). A site of format 1
    /// has its list moved into the state and a new marker; any other is not written to at all.
    func commitKept(record: SiteRecord) throws {
        var record = record
        let earlier = book.record(of: output)
        record.top = earlier?.top ?? []
        record.folderIndexes = earlier?.folderIndexes
        try Self.attempt(book.folder.path) { try book.update(output, record) }
    }
}
