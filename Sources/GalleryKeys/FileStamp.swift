import Foundation

/// Which file a path names: its device and inode.
package struct FileIdentity: Sendable, Equatable {
    package var device: UInt64
    package var inode: UInt64
}

/// A file's size, modification time and identity, read with one `stat` call.
package struct FileStamp: Equatable {
    package var size: Int
    /// Nanoseconds since 1970.
    package var modified: Int
    package var identity: FileIdentity

    /// The stamp of a regular file, or nil when there is none at `path`; with `followingLinks`
    /// false, nil for a symbolic link too (`lstat`).
    package static func of(_ path: String, followingLinks: Bool = true) -> FileStamp? {
        var info = stat()
        guard (followingLinks ? stat(path, &info) : lstat(path, &info)) == 0,
            (info.st_mode & mode_t(S_IFMT)) == mode_t(S_IFREG)
        else { return nil }
        #if os(Linux)
            let time = info.st_mtim
        #else
            let time = info.st_mtimespec
        #endif
        return FileStamp(
            size: Int(info.st_size), modified: Int(time.tv_sec) * 1_000_000_000 + Int(time.tv_nsec),
            identity: FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)))
    }

    /// The stamp of the running executable: of the file `/proc/self/exe` links to, read by its
    /// path, since under valgrind a `stat` of the link itself finds valgrind's tool rather than the
    /// program it runs (so every run under callgrind looked like a new binary to the page key).
    /// When that file was replaced or deleted during the run, the link itself.
    package static var executable: FileStamp? {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"),
            !path.hasSuffix(" (deleted)"), let stamp = of(path)
        {
            return stamp
        }
        return of("/proc/self/exe") ?? of(CommandLine.arguments.first ?? "")
    }
}
