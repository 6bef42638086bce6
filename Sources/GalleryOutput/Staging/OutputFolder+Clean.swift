#if canImport(Glibc)
    import Foundation
    import GalleryModel
    import Glibc
#endif

/// `galleryssg clean`'s part in the output folder: remove what galleryssg wrote, and only that.
extension OutputFolder {
    /// What `removeSite` did.
    package struct Removal: Sendable, Equatable {
        /// Whether the output folder is gone.
        package var removed = false
        /// Folders left in place because they hold files galleryssg did not write, each with a
        /// sentence that says what is in them.
        package var kept: [String] = []
    }

    /// Removes the files galleryssg wrote in the output folder and in the spare and staging folders
    /// beside it, then the folders that left empty. A file the site's list (in the state's `book`)
    /// does not name, and a folder without a list (not a site, or one built before lists existed),
    /// are left where they are and reported.
    /// - Throws: `OutputError` when the output's place is wrong or a file cannot be removed.
    package static func removeSite(output: URL, book: SiteBook, protecting protected: [Protected]) throws -> Removal {
        let output = output.standardizedFileURL
        try checkPlace(output, protecting: protected)
        var removal = Removal()
        for path in StagedWriter.leftoverFolders(of: output) + [output.path]
        where FileManager.default.fileExists(atPath: path) {
            let left = try removeOwnFiles(in: URL(fileURLWithPath: path), book: book)
            if left.isEmpty, rmdir(path) == 0 || errno == ENOENT {
                if path == output.path { removal.removed = true }
                continue
            }
            removal.kept.append(OutputError.keptByClean(path, left).description)
        }
        return removal
    }

    /// Removes a folder a killed build left beside the output (one the build does not start from):
    /// the files galleryssg wrote go, and a folder still holding others is renamed to `aside`, which
    /// no build reuses, rather than deleted.
    static func clearLeftover(_ folder: String, book: SiteBook, aside: URL) {
        let left = (try? removeOwnFiles(in: URL(fileURLWithPath: folder), book: book)) ?? [folder]
        if left.isEmpty, rmdir(folder) == 0 { return }
        let target =
            FileManager.default.fileExists(atPath: aside.path)
            ? aside.deletingLastPathComponent().appendingPathComponent(
                aside.lastPathComponent + "-" + URL(fileURLWithPath: folder).lastPathComponent)
            : aside
        _ = rename(folder, target.path)
    }

    /// Removes the files galleryssg wrote in `folder`; returns the paths left.
    private static func removeOwnFiles(in folder: URL, book: SiteBook) throws -> [String] {
        let root = folder.path
        let listing = StagedListing.list(root)
        var files: [String] = []
        listing.forEachFile { files.append($0) }
        let marker = SiteMarker.read(in: folder)
        let known = book.files(of: folder)
        let since = StagedWriter.changeTime(root + "/" + SiteMarker.buildingName)
        guard known != nil || since != nil else { return files }
        var left: [String] = []
        var emptied = Set(listing.emptyFolders)
        for path in files {
            let ours =
                SiteMarker.names.contains(path) || known?.contains(path) == true
                || (since.map { since in (StagedWriter.changeTime(root + "/" + path) ?? 0) >= since } ?? false)
            guard ours else {
                left.append(path)
                continue
            }
            guard unlink(root + "/" + path) == 0 || errno == ENOENT else {
                throw OutputError(
                    .writeFailed, path: root + "/" + path, "could not be removed: \(String(cString: strerror(errno)))")
            }
            emptied.insert(StagedWriter.parent(of: path))
        }
        if let name = marker?.site { book.forget(name) }  // its marker is gone: the record names nothing now
        for empty in emptied.sorted(by: { ($0.count, $0) > ($1.count, $1) }) {
            var current = empty
            while !current.isEmpty, rmdir(root + "/" + current) == 0 {
                current = StagedWriter.parent(of: current)
            }
        }
        return left
    }
}
