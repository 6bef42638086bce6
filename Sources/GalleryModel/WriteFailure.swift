import Foundation

/// A failed write that the user can do something about: a full disk, or a folder that is not
/// writable. The output (`StagedWriter`) and the state folder (`StoreError.writing`) say the same.
package enum WriteFailure: Sendable, Equatable {
    /// `ENOSPC`, or Foundation's out-of-space error.
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
        if posix == Int(ENOSPC) || nsError.code == NSFileWriteOutOfSpaceError {
            self = .diskFull
        } else if posix == Int(EACCES) || posix == Int(EROFS) || nsError.code == NSFileWriteNoPermissionError {
            self = .notWritable
        } else {
            return nil
        }
    }
}
