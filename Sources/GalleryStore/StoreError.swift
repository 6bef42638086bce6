import Foundation
import GalleryModel

/// A problem with the state folder: the lock, the database or the caches.
///
/// Callers that act on the problem switch on `kind` (as on GRDB's `resultCode`), never on the words.
package typealias StoreError = KindedFailure<StoreErrorKind>

/// What went wrong, for a `StoreError`.
package enum StoreErrorKind: Sendable, Equatable {
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
    /// A write, rename or move in the state folder failed for a reason other than a full disk or
    /// permissions; the words carry the system's reason.
    case writeFailed
    /// The build made a file its plan holds no cache key for: a fault in galleryssg, not in the state.
    case unplanned
}

extension StoreError {
    /// A failed write in the state folder, with what to do about it.
    package static func writing(_ path: String, _ error: Error) -> StoreError {
        switch WriteFailure(error) {
        case .diskFull?:
            StoreError(.diskFull, "\(path): \(WriteFailure.diskFullAdvice(path))")
        case .notWritable?:
            StoreError(
                .notWritable, "\(path): not writable; check the state folder's permissions (the previous site is kept)")
        case nil: StoreError(.writeFailed, "\(path): \(error.localizedDescription)")
        }
    }

    /// The warning for a damaged state database that was moved aside (`StateDatabase.setAside`).
    package static func setAside(_ file: String, kept: String, reason: String) -> String {
        "\(file): the state database is damaged (\(reason)); it is kept as \(kept) and this build starts "
            + "from a fresh state, making every image and page again (nothing is lost: album keys and the "
            + "site secret are files of their own)"
    }

    /// A damaged state database that holds what cannot be had again: the manifest that
    /// `build --offline` builds a remote source from. The file is left where it is.
    package static func damagedOffline(_ file: String, reason: String, source: String) -> StoreError {
        StoreError(
            .damaged,
            "\(file): the state database is damaged (\(reason)); it holds the last manifest fetched from "
                + "\(source), which --offline builds from and which only the source can give again, so it is "
                + "left as it is. Run galleryssg build without --offline once the source can be reached: it keeps "
                + "the damaged file as state.sqlite.damaged-DATE and fetches the manifest again")
    }

    /// A damaged state database found by a command that leaves it as it is (`cache stats`, `cache gc`).
    package static func damaged(_ file: String, reason: String) -> StoreError {
        StoreError(
            .damaged,
            "\(file): the state database is damaged (\(reason)); the next galleryssg build keeps it as "
                + "state.sqlite.damaged-DATE and starts from a fresh state")
    }
}
