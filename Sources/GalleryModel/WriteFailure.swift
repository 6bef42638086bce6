import Foundation

/// A failed write that the user can do something about: a full disk, or a folder that is not
/// writable. The output (`StagedWriter`) and the state folder (`StoreError.writing`) say the same.
package enum WriteFailure: Sendable, Equatable {
    /// `ENOSPC` or `EDQUOT` (a quota), or Foundation's out-of-space error.
    case diskFull
    /// `EACCES` or `EROFS`, or Foundation's no-permission error.
    case notWritable

    /// What `error` (Foundation's, with its POSIX cause underneath, or a `POSIXError`) is, or nil
    /// for any other failure.
    package init?(_ error: any Error) {
        let nsError = error as NSError
        let posix =
            (nsError.userInfo[NSUnderlyingErrorKey] as? NSError)?.code
            ?? (nsError.domain == NSPOSIXErrorDomain ? nsError.code : 0)
        if posix == Int(ENOSPC) || posix == Int(EDQUOT) || nsError.code == NSFileWriteOutOfSpaceError {
            self = .diskFull
        } else if posix == Int(EACCES) || posix == Int(EROFS) || nsError.code == NSFileWriteNoPermissionError {
            self = .notWritable
        } else {
            return nil
        }
    }

    /// What a build that found the disk full says after the path it could not write: the folder
    /// whose file system is full and what to do. The output and the state folder say the same.
    package static func diskFullAdvice(_ path: String) -> String {
        "the disk is full (no space left in \(mountPoint(of: path))); free some space there and build again "
            + "(the previous site is kept)"
    }

    /// The folder the file system holding `path` is mounted at: the topmost folder above `path`
    /// (or above the nearest one that exists) on the same device.
    static func mountPoint(of path: String) -> String {
        var current = URL(fileURLWithPath: path).standardizedFileURL
        var status = stat()
        while stat(current.path, &status) != 0 {
            guard current.path != "/" else { return "/" }
            current.deleteLastPathComponent()
        }
        let device = status.st_dev
        while current.path != "/" {
            let parent = current.deletingLastPathComponent()
            guard stat(parent.path, &status) == 0, status.st_dev == device else { break }
            current = parent
        }
        return current.path
    }
}
