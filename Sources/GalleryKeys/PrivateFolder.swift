import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The modes of what a build keeps for itself: the state folder (database, keys, site secret) and
/// the cache folder (derivatives, rendered pages, downloaded originals, most of them plaintext of
/// protected albums too) are the owner's alone (0700), and the files that hold a secret or captions
/// are 0600 (docs/sharing.md, "Who can read the state").
///
/// Files in the caches keep 0644: the published site hard-links them (the same inode), and a web
/// server must read the published copy. The folder above them being 0700 is what keeps another user
/// from reaching the cache's copies, protected albums' plaintext included, which is never linked
/// into the output.
package enum PrivateFolder {
    /// Folders: read, write and enter for the owner only.
    static let folderMode: mode_t = 0o700
    /// Files holding keys, secrets or captions.
    package static let fileMode: mode_t = 0o600

    /// Creates `folder` (and any missing parent, with the usual modes) as the owner's alone, or takes
    /// away the group's and others' access to it when it exists (a state made by an earlier galleryssg).
    /// - Throws: `POSIXError` with the failing call's `errno`.
    package static func make(_ folder: URL) throws {
        let path = folder.path
        if mkdir(path, folderMode) == 0 { return }
        if errno == ENOENT {
            try FileManager.default.createDirectory(
                at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
            if mkdir(path, folderMode) == 0 { return }
        }
        guard errno == EEXIST else { throw error() }
        try restrict(path, to: folderMode)
    }

    /// Creates an empty file at `path`, the owner's alone, unless there is one.
    /// - Throws: `POSIXError` with the failing call's `errno`.
    package static func makeFile(_ path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, fileMode)
        guard descriptor >= 0 else { throw error() }
        close(descriptor)
    }

    /// Takes away every permission `mode` does not give (0o755 becomes 0o700 for a folder, 0o644
    /// 0o600 for a file) from the file or folder at `path`, when it exists.
    /// - Throws: `POSIXError` when it cannot be changed (not the owner's, a read-only file system).
    package static func restrict(_ path: String, to mode: mode_t) throws {
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return }
            throw error()
        }
        let kept = info.st_mode & 0o7777 & mode
        guard kept != info.st_mode & 0o7777 else { return }
        guard chmod(path, kept) == 0 else { throw error() }
    }

    private static func error() -> POSIXError {
        POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
    }
}
