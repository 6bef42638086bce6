#if canImport(Glibc)
    import Foundation
    import GalleryModel
    import Glibc
#endif

/// The end of a build: sorting what the earlier site left in the staging folder, marking the new
/// site, swapping it in; and `clean`.
extension StagedWriter {
    /// What `settle` moved into the folder beside the output.
    package struct Settlement: Sendable, Equatable {
        /// Files galleryssg did not write, moved because the build takes the folder over (`--force`).
        package var foreign = 0
        /// Files of a site an earlier version built (it kept no list) that this build does not
        /// write: they may be its own or someone's, so they are moved, never deleted.
        package var unknown = 0
    }

    /// Works out which files the staging folder started with that this build did not write, and
    /// checks that galleryssg wrote each of them (the earlier site's file list in the state names it, or a killed build made it after `SiteMarker.buildingName`'s time). A file it did
    /// not write (one added by hand to the published site, which the last swap carried here) is
    /// refused, or with `takeOver` moved into `aside`. Nothing is removed yet: `commit` does that.
    ///
    /// Waits (suspended) for the background listing when it is not done yet; the file list is read
    /// only when there is something to remove, so a build that changed nothing reads no more.
    /// - Returns: What was moved into `aside`.
    /// - Throws: `OutputError.foreignInPrevious` naming the spare, the files and the fix.
    package func settle(takeOver: Bool, aside: URL) async throws -> Settlement {
        // The published site holds every file of this build and no other it listed: it is kept.
        if let live, !live.isStaged, live.matchesList() { return Settlement() }
        try stage()
        guard let written else { return Settlement() }  // nothing was there to begin with
        let listing = await previous.listing
        var stale: [String] = []
        var listed = 0
        listing.forEachFile { path in
            guard !SiteMarker.names.contains(path) else { return }
            listed += 1
            if !written.contains(path) { stale.append(path) }
        }
        // Every listed file was written again, and nothing else was: the same files as before. Not
        // after a build kept the published site for a while: it began staging by linking the files
        // kept so far while the folder was being listed, so the listing may hold files it wrote.
        let sameFiles = live == nil && stale.isEmpty && written.count == listed
        var foreign: [String] = []
        var settlement = Settlement()
        if !stale.isEmpty {
            let known = book.files(of: staging)
            let note = stagingPath + "/" + SiteMarker.buildingName
            let since = Self.changeTime(note)
            let older = stale.filter { path in
                if known?.contains(path) == true { return false }
                // Gone since it was listed: a temporary file of this build's own atomic writes.
                guard let made = Self.changeTime(stagingPath + "/" + path) else { return false }
                guard let since else { return true }
                return made < since
            }
            let earlierVersion =
                known == nil && (since == nil || (try? String(contentsOfFile: note, encoding: .utf8)) == "adopted\n")
            if earlierVersion && !older.isEmpty {
                try OutputFolder.move(older, from: staging, into: aside)
                settlement.unknown = older.count
                let gone = Set(older)
                stale.removeAll { gone.contains($0) }
            } else {
                foreign = older
            }
        }
        if !foreign.isEmpty {
            guard takeOver else {
                throw OutputError.foreignInPrevious(folder: Self.spareFolder(of: output).path, foreign)
            }
            try OutputFolder.move(foreign, from: staging, into: aside)
            settlement.foreign = foreign.count
            let gone = Set(foreign)
            stale.removeAll { gone.contains($0) }
        }
        var emptied = Set(listing.emptyFolders)
        for path in stale + foreign { emptied.insert(Self.parent(of: path)) }
        settled.withLockedValue { $0 = (stale, emptied, sameFiles) }
        return settlement
    }

    /// Removes what `settle` found, records the site and its file list in the state, marks it, and
    /// swaps the staging folder in as the output; the previous site becomes the spare.
    /// - Parameters:
    ///   - record: What the site was built from; its `top` is filled in here from the files written.
    ///   - folderIndex: The page for each folder without an index page (`FolderIndexes`).
    /// - Throws: `OutputError`; the previous site is still in place when it does.
    package func commit(record: SiteRecord, folderIndex: FolderIndexes.Page) async throws {
        if keptPublishedSite { return try commitKept(record: record) }
        let fileManager = FileManager.default
        try removeSettled()
        try writeMarker(record, folderIndex: folderIndex)
        guard fileManager.fileExists(atPath: output.path) else {
            try Self.attempt(output.path) { try fileManager.moveItem(at: staging, to: output) }
            return
        }
        let spare = Self.spareFolder(of: output)
        if Self.exchange(staging.path, output.path) {
            // The staging name now holds the previous site: keep it as the next build's starting point.
            if rename(staging.path, spare.path) != 0 { Self.keep(staging, beside: output) }
            return
        }
        let old = output.deletingLastPathComponent().appendingPathComponent(
            ".\(output.lastPathComponent).old-\(getpid())")
        try Self.attempt(output.path) { try fileManager.moveItem(at: output, to: old) }
        do {
            try fileManager.moveItem(at: staging, to: output)
        } catch {
            try? fileManager.moveItem(at: old, to: output)
            throw OutputError(
                .writeFailed, path: output.path, "could not publish the new site: \(error.localizedDescription)")
        }
        if rename(old.path, spare.path) != 0 { Self.keep(old, beside: output) }
    }

    /// Keeps the staging folder of a failed build as the next build's starting point; the output
    /// is untouched. When a spare is already there, the staging folder stays under its own name,
    /// and the next build starts from the spare and leaves it be.
    package func abort() {
        guard !keptPublishedSite else { return }  // nothing was staged
        let spare = Self.spareFolder(of: output)
        if !FileManager.default.fileExists(atPath: spare.path) { _ = rename(staging.path, spare.path) }
    }

    /// A previous site that could not become the spare stays where it is, under a name of its own
    /// that no build reuses or prunes (the spare's name was taken, which a lock makes unlikely).
    private static func keep(_ folder: URL, beside output: URL) {
        _ = rename(folder.path, OutputFolder.asideFolder(for: output).path)
    }

    private func removeSettled() throws {
        let (files, folders, _) = settled.withLockedValue { $0 }
        for path in files {
            guard unlink(stagingPath + "/" + path) == 0 || errno == ENOENT else {
                throw OutputError(
                    .writeFailed, path: stagingPath + "/" + path,
                    "could not remove a stale file: \(String(cString: strerror(errno)))"
                )
            }
        }
        // Deepest first; a folder that is removed may leave its parent empty too.
        for folder in folders.sorted(by: { ($0.count, $0) > ($1.count, $1) }) {
            var current = folder
            while !current.isEmpty, rmdir(stagingPath + "/" + current) == 0 {
                current = Self.parent(of: current)
            }
        }
    }

    /// Records the staged site in the state (`SiteBook.mark`: its record and every file of it) and
    /// marks it, and removes the building note. A staging folder that started empty is listed for it:
    /// a cold build keeps no list of its paths in memory. A build that staged exactly the earlier
    /// site's files keeps that site's list (40,000 paths at 10,000 photos), so a build that changed
    /// nothing writes no list.
    private func writeMarker(_ record: SiteRecord, folderIndex: FolderIndexes.Page) throws {
        var record = record
        // The same files as the earlier site, which had no folder index pages (each would have been
        // stale, as they are never written before this): that site's list stands.
        if settled.withLockedValue({ $0.sameFiles }), book.listPath(of: staging) != nil,
            let earlier = book.record(of: staging), earlier.folderIndexes == nil || earlier.folderIndexes == []
        {
            record.top = earlier.top
            record.folderIndexes = earlier.folderIndexes
            try Self.attempt(book.folder.path) { try book.mark(staging, record, list: nil) }
            unlink(stagingPath + "/" + SiteMarker.buildingName)
            return
        }
        var paths: [String]
        if let written {
            paths = written.all
        } else {
            paths = []
            StagedListing.list(stagingPath).forEachFile { paths.append($0) }
        }
        paths.removeAll { SiteMarker.names.contains($0) }
        let bare = FolderIndexes.bare(in: paths)
        for folder in bare {
            let page = folder.isEmpty ? SiteLayout.folderIndex : folder + "/" + SiteLayout.folderIndex
            try write(Data(folderIndex(FolderIndexes.root(of: folder))), to: page)
            paths.append(page)
        }
        record.folderIndexes = bare
        record.top = Array(Set(paths.map { path in path.prefix { $0 != "/" } })).map(String.init).sorted()
        try Self.attempt(book.folder.path) { try book.mark(staging, record, list: SiteMarker.listing(paths)) }
        unlink(stagingPath + "/" + SiteMarker.buildingName)
    }

    /// The time a file's inode last changed (made, linked, renamed into place); nil when missing.
    /// Unlike the modification time, no one can set it back.
    static func changeTime(_ path: String) -> Double? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return Double(info.st_ctim.tv_sec) + Double(info.st_ctim.tv_nsec) / 1e9
    }
}
