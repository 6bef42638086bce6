import Foundation
import GalleryModel

/// An album `index.md`'s `hidden` or `order` list, matched against the files and sub-folders of its
/// folder: each entry is a name (`IMG_2041.jpg`, `Day 2`) or a glob (`IMG_20*.jpg`, `[ab]*`); one that
/// ends in `/` (`Outtakes/`) names sub-folders only. Names match as written, case and all.
package struct FolderEntries: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        /// As written in the list.
        package var written: String
        package var pattern: String
        var foldersOnly: Bool
        var isGlob: Bool
    }

    package var entries: [Entry]

    package init(_ written: [String]) {
        entries = written.compactMap { text in
            let foldersOnly = text.hasSuffix("/")
            let pattern = foldersOnly ? String(text.dropLast()) : text
            guard !pattern.isEmpty, !pattern.contains("/") else { return nil }
            return Entry(
                written: text, pattern: pattern, foldersOnly: foldersOnly,
                isGlob: pattern.contains { "*?[".contains($0) })
        }
    }

    package var isEmpty: Bool { entries.isEmpty }

    /// The position of the first entry that matches `name`, or nil.
    package func place(of name: String, isFolder: Bool) -> Int? {
        entries.firstIndex { Self.matches($0, name, isFolder: isFolder) }
    }

    /// The entries that match none of `files` and `folders`, each with the nearest name there is,
    /// for a warning (a misspelt `hidden` entry would otherwise publish what it meant to hide).
    func unmatched(files: [String], folders: [String]) -> [Unmatched] {
        entries.compactMap { entry in
            let matched =
                folders.contains { Self.matches(entry, $0, isFolder: true) }
                || files.contains { Self.matches(entry, $0, isFolder: false) }
            guard !matched else { return nil }
            let candidates = entry.foldersOnly ? folders : files + folders
            return Unmatched(entry: entry.written, nearest: Spelling.closest(to: entry.pattern, among: candidates))
        }
    }

    private static func matches(_ entry: Entry, _ name: String, isFolder: Bool) -> Bool {
        guard isFolder || !entry.foldersOnly else { return false }
        guard entry.isGlob else { return entry.pattern == name }
        return fnmatch(entry.pattern, name, FNM_PERIOD) == 0
    }

    /// A list entry that named nothing in its folder.
    struct Unmatched: Sendable, Equatable {
        var entry: String
        var nearest: String?
    }
}

/// Why an album's `hidden` or `order` list was not followed in full. Its words are made here.
enum FolderListProblem: Sendable, Equatable, CustomStringConvertible {
    /// A `hidden` entry matching no file or sub-folder: nothing was hidden by it.
    case hiddenMatchesNothing(FolderEntries.Unmatched, folder: String)
    /// An `order` entry matching no file or sub-folder: it places nothing.
    case orderMatchesNothing(FolderEntries.Unmatched, folder: String)

    var description: String {
        let (key, what, unmatched, folder) =
            switch self {
            case .hiddenMatchesNothing(let unmatched, let folder):
                ("hidden", "nothing was hidden by it", unmatched, folder)
            case .orderMatchesNothing(let unmatched, let folder): ("order", "it places nothing", unmatched, folder)
            }
        let place = folder.isEmpty ? "the source folder" : "\(folder)/"
        let hint = unmatched.nearest.map { "; did you mean \"\($0)\"?" } ?? "; check the name, its case and extension"
        return "\(key) lists \"\(unmatched.entry.prefix(200))\", which matches no file or sub-folder in \(place): "
            + "\(what)\(hint)"
    }
}
