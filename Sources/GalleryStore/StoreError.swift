import Foundation
import GalleryModel

/// A problem with the state folder: the lock, the database or the caches.
///
/// Callers that act on the problem switch on `kind` (as on GRDB's `resultCode`), never on the words.
package struct StoreError: Error, CustomStringConvertible, Sendable {
    package enum Kind: Sendable, Equatable {
        /// Another build or command holds the site's state (its lock); waiting is the cure.
        case locked
        /// A write in the state folder found the disk full.
        case diskFull
        /// The state folder or a file in it may not be written (permissions, a read-only disk).
        case notWritable
        /// The state folder, its lock file or its database could not be made or opened.
        case unopenable
        /// A file the build wrote, staged or cached is gone, or could not be read back.
        case missingFile
        /// The state holds what this build did not write (a damaged or foreign row).
        case damaged
        /// A problem with no kind of its own: its words say what it is.
        case other
    }

    package let kind: Kind
    package let description: String

    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }

    /// A problem with no kind of its own (`other`).
    package init(_ description: String) {
        self.init(.other, description)
    }

    /// A failed write in the state folder, with what to do about it.
    package static func writing(_ path: String, _ error: Error) -> StoreError {
        switch WriteFailure(error) {
        case .diskFull?:
            StoreError(
                .diskFull, "\(path): the disk is full; free some space and build again (the previous site is kept)")
        case .notWritable?:
            StoreError(
                .notWritable, "\(path): not writable; check the state folder's permissions (the previous site is kept)")
        case nil: StoreError("\(path): \(error.localizedDescription)")
        }
    }
}
