import Foundation

/// A file the folder source could not use, and why: each becomes a manifest issue, a skipped photo
/// the build reports, where an `IgnoredFile` was left out on purpose.
package struct RejectedFile: Sendable, Equatable {
    /// The path relative to the source folder (a folder's ends with `/`).
    package var path: String
    package var reason: Reason

    /// Why the file could not be used; its words are made here and nowhere else.
    package enum Reason: Sendable, Equatable, CustomStringConvertible {
        case folderUnlistable
        /// `lstat` failed with this `errno`.
        case unreadable(errno: Int32)
        case brokenSymlink
        case symlinkOutsideSource(target: String)
        case symlinkTargetUnreadable
        case notRegularFile
        case nestedTooDeep(maxDepth: Int)
        /// The file's lower-case extension, empty when it has none.
        case unsupportedFormat(extension: String)
        /// A `.json` file that is not one of Google Takeout's (`TakeoutFolder`).
        case notTakeoutJSON(JSONProblem)

        /// Why a `.json` file was not read as Google Takeout's.
        package enum JSONProblem: Sendable, Equatable {
            /// JSON, but neither a photo's sidecar nor an album's `metadata.json`.
            case otherShape
            /// Unreadable, too large or not JSON, in the reader's words.
            case unread(String)
        }
        /// A file named as a clip whose bytes are text (a TypeScript `.ts`); its lower-case extension.
        case textFile(extension: String)

        package var description: String {
            switch self {
            case .folderUnlistable: "folder could not be listed; check its permissions"
            case .unreadable(let code): "could not be read: \(String(cString: strerror(code)))"
            case .brokenSymlink: "broken symlink: its target does not exist"
            case .symlinkOutsideSource(let target):
                "symlink to \(target), outside the source folder; copy the file into the folder, or link to a file inside it"
            case .symlinkTargetUnreadable: "broken symlink: its target cannot be read"
            case .notRegularFile: "not a regular file (a device, socket or pipe)"
            case .nestedTooDeep(let depth): "nested more than \(depth) folders deep"
            case .unsupportedFormat(let ext):
                "unsupported format: \(ext.isEmpty ? "a file without an extension" : ".\(ext) files") are not photos galleryssg reads"
            case .notTakeoutJSON(.otherShape):
                "unsupported format: .json files are read only as Google Takeout writes them (a photo's sidecar "
                    + "or an album's metadata.json), and this one is JSON of another shape"
            case .notTakeoutJSON(.unread(let reason)): "Google Takeout JSON not read: the file \(reason)"
            case .textFile(let ext):
                "a text file named .\(ext), not a photo or a video clip (its first bytes are text, which no video starts with)"
            }
        }
    }
}
