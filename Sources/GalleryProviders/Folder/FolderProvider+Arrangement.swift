import Foundation
import GalleryMetadata
import GalleryModel

extension FolderProvider {
    /// What a folder's `index.md` says of its own files: read once, with safe defaults when it has none.
    struct FolderIndex {
        var hidden = FolderEntries([])
        var order = FolderEntries([])
        var draft = false
        var weight: Int?
        var resources: [BundleResource] = []
    }

    /// Reads the folder's `index.md` into `manifest` (the album's settings, warnings, the file as read
    /// or an issue when it cannot be); the source folder's own index is read for its lists only.
    func readIndex(of directory: FolderListing.Directory, ids: [String], into manifest: inout Manifest) -> FolderIndex {
        guard let index = directory.index else { return FolderIndex() }
        do {
            let idsByName = Dictionary(
                zip(directory.photos.map { ($0 as NSString).lastPathComponent }, ids),
                uniquingKeysWith: { first, _ in first })
            let album = try AlbumIndex.read(folder.appendingPathComponent(index), photoIDsByFileName: idsByName)
            if directory.path.isEmpty {
                manifest.ignored.append(IgnoredFile(path: index, reason: .sourceIndexIsNoAlbum))
            } else {
                manifest.albums[directory.path] = album.info
                manifest.ignored.append(IgnoredFile(path: index, reason: .albumIndexRead))
            }
            manifest.warnings += album.warnings.map {
                ManifestIssue(item: index, location: nil, reason: $0.description, isFile: true)
            }
            return FolderIndex(
                hidden: FolderEntries(album.hiddenFiles), order: FolderEntries(album.order), draft: album.draft,
                weight: album.weight, resources: album.resources)
        } catch {
            manifest.issues.append(
                ManifestIssue(
                    item: index, location: folder.appendingPathComponent(index).path,
                    reason: "album index not read: \(error)"))
            return FolderIndex()
        }
    }

    /// The library's folders as `index.md` files arrange them: sub-folders hidden by their parent's
    /// `hidden`, albums placed by their parent's `order` or their own `weight`.
    ///
    /// Places by hand are whole numbers, lower first (`Photo.order`, `AlbumInfo.order`): an `order`
    /// list's entries take 0, 1, 2…; a `weight` (or a photo's `order`) comes after every list entry.
    struct Arrangement {
        /// Each folder's sub-folders by name, from every folder the listing kept.
        private var subfolders: [String: Set<String>] = [:]
        /// Hidden folders: path → the file that hid it.
        private var hidden: [String: String] = [:]
        /// Albums placed by their parent's `order` list, and albums with a `weight` of their own.
        private var listedPlace: [String: Int] = [:]
        private var weights: [String: Int] = [:]

        init(directories: [FolderListing.Directory]) {
            for directory in directories {
                var path = directory.path
                while !path.isEmpty {
                    let parent = (path as NSString).deletingLastPathComponent
                    subfolders[parent, default: []].insert((path as NSString).lastPathComponent)
                    path = parent
                }
            }
        }

        /// The hidden folder `path` is in (itself or one above it) and the file that hid it, or nil.
        func hiddenAncestor(of path: String) -> (folder: String, by: String)? {
            var current = path
            while !current.isEmpty {
                if let file = hidden[current] { return (current, file) }
                current = (current as NSString).deletingLastPathComponent
            }
            return nil
        }

        /// Takes in what `index` says of the folder's files and sub-folders; entries naming nothing are warned of.
        mutating func read(
            _ index: FolderIndex, of directory: FolderListing.Directory, index path: String?,
            into manifest: inout Manifest
        ) {
            let prefix = directory.path.isEmpty ? "" : directory.path + "/"
            let folders = (subfolders[directory.path] ?? []).sorted()
            for name in folders {
                if index.hidden.place(of: name, isFolder: true) != nil {
                    hidden[prefix + name] = path ?? "index.md"
                    manifest.ignored.append(
                        IgnoredFile(path: prefix + name + "/", reason: .folderHiddenBy(path ?? "index.md")))
                }
                if let place = index.order.place(of: name, isFolder: true) { listedPlace[prefix + name] = place }
            }
            if let weight = index.weight, !directory.path.isEmpty { weights[directory.path] = weight }
            guard let path, !(index.hidden.isEmpty && index.order.isEmpty) else { return }
            var files = directory.photos.map { ($0 as NSString).lastPathComponent }
            files += directory.motions.values.map { ($0 as NSString).lastPathComponent }
            let problems =
                index.hidden.unmatched(files: files, folders: folders).map {
                    FolderListProblem.hiddenMatchesNothing($0, folder: directory.path)
                }
                + index.order.unmatched(files: files, folders: folders).map {
                    FolderListProblem.orderMatchesNothing($0, folder: directory.path)
                }
            manifest.warnings += problems.map {
                ManifestIssue(item: path, location: nil, reason: $0.description, isFile: true)
            }
        }

        /// The Live Photo clip of the still at `relative`, unless the folder's `hidden` names the clip:
        /// then the still is published without its motion, and the clip counted as hidden.
        func motion(
            of relative: String, in directory: FolderListing.Directory, hidden list: FolderEntries,
            into manifest: inout Manifest
        ) -> String? {
            guard let clip = directory.motions[relative] else { return nil }
            guard list.place(of: (clip as NSString).lastPathComponent, isFolder: false) != nil else { return clip }
            if let entry = manifest.ignored.firstIndex(where: { $0.path == clip }) {
                manifest.ignored[entry].reason = .hiddenBy(directory.index ?? "index.md")
            }
            return nil
        }

        /// The place of a photo or album with a `weight`: after every entry of an `order` list.
        static func place(weight: Int) -> Int {
            AlbumIndex.maxHidden + 1_000_000_000 + weight  // weights are under a billion either way
        }

        /// Sets each album's place among its siblings, as its parent's `order` list or its own `weight`
        /// says, and leaves out the problems of files inside hidden folders, which were hidden on purpose.
        func finish(_ manifest: inout Manifest) {
            if !hidden.isEmpty {
                manifest.issues.removeAll { issue in
                    issue.isFile && hiddenAncestor(of: (issue.item as NSString).deletingLastPathComponent) != nil
                }
            }
            for (path, weight) in weights where listedPlace[path] == nil {
                manifest.albums[path, default: AlbumInfo()].order = Self.place(weight: weight)
            }
            for (path, place) in listedPlace where hiddenAncestor(of: path) == nil {
                manifest.albums[path, default: AlbumInfo()].order = place
            }
        }
    }
}
