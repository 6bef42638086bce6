import Foundation
import GalleryModel

/// The output folder could not be written, or may not be: every word the user reads about the
/// output folder is made here.
///
/// Callers that act on the problem switch on `kind`, never on the words.
package struct OutputError: KindedError {
    package enum Kind: Sendable, Equatable {
        /// The output exists and is a file.
        case notAFolder
        /// The output is, contains or lies inside a folder the site is made from (photos, state, templates).
        case misplaced
        /// The output folder holds entries galleryssg did not write; `--force` moves them aside.
        case foreignEntries
        /// The previous site, kept as the spare, holds files added by hand; `--force` moves them aside.
        case foreignInPrevious
        /// An entry galleryssg did not write could not be moved aside; nothing was deleted.
        case notMoved
        /// `clean` kept a folder that holds files galleryssg did not write.
        case kept
        /// A site path that would leave the output folder.
        case unsafePath
        /// A write found the disk full.
        case diskFull
        /// The folder may not be written (permissions, a read-only disk).
        case notWritable
        /// A folder could not be listed, or a file read.
        case unreadable
        /// A write, move or removal failed for another reason; the words carry the system's reason.
        case writeFailed
    }

    package let kind: Kind
    package let path: String
    package let reason: String
    package var description: String { "\(path): \(reason)" }

    package init(_ kind: Kind, path: String, _ reason: String) {
        self.kind = kind
        self.path = path
        self.reason = reason
    }

    /// How many names a message lists before it says how many more there are.
    package static let namesShown = 5

    /// `a, b, c (and 4 more)`.
    package static func list(_ names: [String]) -> String {
        let shown = names.prefix(namesShown).joined(separator: ", ")
        return names.count > namesShown ? "\(shown) (and \(names.count - namesShown) more)" : shown
    }

    /// Beginning the staging folder (when a build that kept the published site finds a change) failed.
    package static func stagingFailed(_ path: String, _ error: any Error) -> OutputError {
        OutputError(.writeFailed, path: path, error.localizedDescription)
    }

    /// A file of the published site, kept so far, was gone when the build began staging.
    package static func vanished(_ path: String) -> OutputError {
        OutputError(.unreadable, path: path, "a file of the published site vanished during the build; build again")
    }

    /// The output is a file.
    package static func notAFolder(_ path: String) -> OutputError {
        OutputError(
            .notAFolder, path: path,
            "the output exists and is a file, not a folder; move it away or choose another \"output\"")
    }

    /// The output is, contains or lies inside a folder the site needs.
    package static func place(output: String, _ role: String, _ folder: String, _ relation: String) -> OutputError {
        let what: String
        switch relation {
        case "is the same folder": what = "is \(role) (\(folder))"
        case "contains": what = "contains \(role) (\(folder)), which a build would replace"
        default: what = "is inside \(role) (\(folder)), which a build must not write into"
        }
        return OutputError(
            .misplaced, path: output,
            "the output folder \(what); choose another \"output\" in the config or with --output")
    }

    /// The output holds entries galleryssg did not write.
    package static func foreign(folder: String, _ names: [String]) -> OutputError {
        OutputError(
            .foreignEntries, path: folder,
            "the output folder holds \(names.count) \(names.count == 1 ? "entry" : "entries") "
                + "galleryssg did not write: \(list(names)). Nothing was built. Build with --force to move "
                + "\(names.count == 1 ? "it" : "them") into a folder beside it (the message says where), "
                + "or set \"output\" to a new or empty folder")
    }

    /// The previous site (the spare a build starts from) holds files galleryssg did not write: they
    /// were added to the published site before the last build swapped it out.
    package static func foreignInPrevious(folder: String, _ paths: [String]) -> OutputError {
        OutputError(
            .foreignInPrevious, path: folder,
            "the previous site, kept here, holds \(paths.count) \(paths.count == 1 ? "file" : "files") "
                + "galleryssg did not write (added by hand to the published site): \(list(paths)). "
                + "galleryssg publishes only what it builds, and deletes nothing it did not write, so nothing "
                + "was published. Move \(paths.count == 1 ? "it" : "them") out of that folder, or build with --force "
                + "to move \(paths.count == 1 ? "it" : "them") into a folder beside the output")
    }

    /// A foreign entry could not be moved out of the way (`--force`); nothing was copied or deleted.
    package static func notMoved(_ source: String, to target: String, _ reason: String) -> OutputError {
        OutputError(
            .notMoved, path: source,
            "could not be moved to \(target) (\(reason)); nothing was deleted. Move it yourself, "
                + "or choose another \"output\"")
    }

    /// `clean` left a folder because it holds files galleryssg did not write, or has no list of its files.
    package static func keptByClean(_ folder: String, _ paths: [String]) -> OutputError {
        OutputError(
            .kept, path: folder,
            "kept: \(paths.count) \(paths.count == 1 ? "file" : "files") galleryssg did not write "
                + "(or wrote before it kept a list of its files): \(list(paths)). Remove them yourself if you mean to")
    }

    /// What `--force` moved, and where (a warning, not an error).
    package static func movedAside(_ count: Int, from folder: String, to aside: String) -> String {
        "--force: moved \(count) \(count == 1 ? "entry" : "entries") galleryssg did not write from \(folder) "
            + "into \(aside); nothing was deleted"
    }

    /// Files a site of an earlier version held that the build no longer has, moved rather than
    /// deleted, because that version kept no list of its files (a warning, once after upgrading).
    package static func movedFromEarlierVersion(_ count: Int, to aside: String) -> String {
        "the previous site was built by an earlier galleryssg, which kept no list of its files: the \(count) "
            + "\(count == 1 ? "file" : "files") of it this build no longer has \(count == 1 ? "was" : "were") moved into "
            + "\(aside) rather than deleted; remove that folder once you have checked it holds nothing of yours"
    }
}
