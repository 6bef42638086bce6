import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The files a reused staging folder (the previous site, or a killed build's folder) held when the
/// build started, listed on a background thread while the build fetches and renders.
///
/// `StagedWriter.commit` removes the listed files the build did not write. Walking 10,000 photo
/// folders took 0.2 to 0.8 s, which is why it is done early and off the build's path. The walk
/// may overlap the build's own writes; that is safe because the build only adds or replaces files
/// it writes, and every file it did not touch is listed however the walk and the writes interleave.
///
/// The walk's blocking `readdir` calls run on a Dispatch thread, not on Swift's cooperative pool
/// (one thread per core, shared with the build); a task awaits its result, and `listing` awaits
/// that task, so nothing blocks while the walk runs.
package struct StagedListing: Sendable {
    package struct Listing: Sendable {
        /// Site-relative paths of every file (and symlink) found, each followed by a NUL byte: one
        /// buffer rather than a string per file (at 100,000 photos, 10 MB instead of 28 MB held
        /// until the build commits).
        package private(set) var fileBytes: [UInt8] = []
        /// Site-relative paths of folders found empty.
        var emptyFolders: [String] = []

        mutating func addFile(_ path: String) {
            fileBytes.append(contentsOf: path.utf8)
            fileBytes.append(0)
        }

        /// Drops the spare capacity the buffer grew with.
        package mutating func trim() {
            fileBytes = [UInt8](unsafeUninitializedCapacity: fileBytes.count) { buffer, count in
                count = buffer.initialize(from: fileBytes).1
            }
        }

        /// Every file's site-relative path, in the order found.
        func forEachFile(_ body: (String) throws -> Void) rethrows {
            var start = 0
            while let end = fileBytes[start...].firstIndex(of: 0) {
                try body(String(decoding: fileBytes[start..<end], as: UTF8.self))
                start = end + 1
            }
        }
    }

    /// The walk; nil for a fresh, empty staging folder.
    private let walking: Task<Listing, Never>?

    /// Starts listing `root`; nil for a fresh, empty staging folder.
    package init(root: String?) {
        guard let root else {
            walking = nil
            return
        }
        walking = Task {
            await withCheckedContinuation { done in
                DispatchQueue.global(qos: .userInitiated).async {
                    var listing = Listing()
                    Self.walk(root, relative: "", into: &listing)
                    listing.trim()
                    done.resume(returning: listing)
                }
            }
        }
    }

    /// The listing, once the walk has finished.
    package var listing: Listing {
        get async { await walking?.value ?? Listing() }
    }

    /// Lists `root` at once, on the calling thread.
    package static func list(_ root: String) -> Listing {
        var listing = Listing()
        walk(root, relative: "", into: &listing)
        return listing
    }

    private static func walk(_ root: String, relative: String, into listing: inout Listing) {
        let folder = relative.isEmpty ? root : root + "/" + relative
        guard let directory = opendir(folder) else { return }
        var folders: [String] = []
        var count = 0
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            guard name != "." && name != ".." else { continue }
            count += 1
            let path = relative.isEmpty ? name : relative + "/" + name
            var isFolder = entry.pointee.d_type == UInt8(DT_DIR)
            if entry.pointee.d_type == UInt8(DT_UNKNOWN) {
                var info = stat()
                isFolder = lstat(root + "/" + path, &info) == 0 && (info.st_mode & mode_t(S_IFMT)) == mode_t(S_IFDIR)
            }
            if isFolder { folders.append(path) } else { listing.addFile(path) }
        }
        closedir(directory)
        if count == 0 && !relative.isEmpty { listing.emptyFolders.append(relative) }
        for path in folders { walk(root, relative: path, into: &listing) }
    }
}
