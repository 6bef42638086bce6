import Foundation
import GalleryModel
import GalleryStore

/// How one build's results merge into the state, as the seeds merge a fetched feed into their store:
/// rows are unique by (source, id), new photos are inserted, changed ones updated, and orphans
/// (photos no longer in the manifest, or from another source) are deleted together with the cached
/// files and downloads that only they used.
///
/// A photo that failed this build keeps its previous row and files, so a passing network error
/// does not throw away its cache.
package struct StateMerge {
    /// The rows, pages and counts to write; blobs and learnt facts are added by the caller.
    package let changes: StateChanges
    /// Derivatives and published originals that only removed photos used.
    package let orphanImageKeys: [Digest]
    /// Cached pages that no page of this build uses any more.
    package let orphanPageKeys: [Digest]
    /// Downloaded originals that no photo of the manifest uses any more.
    package let orphanDownloads: [ImageLocation]

    /// - Parameters:
    ///   - published: What the build kept of every photo of the manifest that was published, in manifest order.
    ///   - tally: Their counts.
    ///   - failed: The others; a photo is in the manifest if and only if it is in one of the two.
    ///   - database: The state, whose pending tables hold the build's written rows and staged pages;
    ///     the rows are read back (`PhotoRows.forEach`) only when removed photos leave cached files or
    ///     downloads that may be orphans.
    package init(snapshot: StateSnapshot, source: String, published: [PhotoPublisher.PublishedRow], tally: PhotoPublisher.Tally,
         failed: [PhotoPublisher.Failed], pages: PagePublisher.Outcome, database: StateDatabase) async throws {
        var changes = StateChanges(source: source)
        changes.counts.photosNew = tally.new
        changes.counts.photosChanged = tally.changed
        changes.counts.photosUnchanged = tally.unchanged
        changes.counts.derivativesMade = tally.made
        changes.counts.derivativesReused = tally.reused
        // Which of the state's rows the manifest still lists, by row: no set of 100,000 ids.
        var listed = [Bool](repeating: false, count: snapshot.photos.count)
        for photo in published where photo.prior >= 0 { listed[Int(photo.prior)] = true }
        for photo in failed {
            guard let row = snapshot.photos.row(of: photo.id) else { continue }
            listed[row] = true
            let prior = snapshot.photos.values[row]
            if photo.position != prior.position { changes.positions.append((photo.id, photo.position)) }
        }
        let removed = snapshot.photos.values.indices.filter { !listed[$0] }.map { snapshot.photos.values[$0] }.sorted { $0.id < $1.id }
        changes.removedIDs = removed.map(\.id)
        changes.counts.photosRemoved = removed.count + snapshot.otherSources.count

        // What the gone rows used, less what a photo of this build still uses: only those keys and
        // downloads are looked for in the rows, so nothing the size of the manifest is gathered.
        let gone = removed + snapshot.otherSources
        var orphanKeys = Set(gone.flatMap(\.blobKeys))
        var orphanLocations = Set(gone.filter(\.isRemote).map(\.location))
        if !orphanKeys.isEmpty || !orphanLocations.isEmpty {
            for photo in failed {
                orphanLocations.remove(photo.location)
                if let prior = snapshot.photos[photo.id] { orphanKeys.subtract(prior.blobKeys) }
            }
            try await PhotoRows.forEach(published, snapshot: snapshot.photos, database: database) { row in
                orphanKeys.subtract(row.blobKeys)
                orphanLocations.remove(row.location)
            }
        }
        orphanImageKeys = orphanKeys.sorted()
        orphanDownloads = orphanLocations.sorted().compactMap { URL(string: $0).map(ImageLocation.remote) }

        guard !pages.samePagesAsBefore else {
            // Every page is the last build's: nothing to write, delete or forget.
            orphanPageKeys = []
            self.changes = changes
            return
        }
        // The staged pages are in the pending table, which replaces the last build's in the state's
        // transaction (`StateDatabase.applyPendingPages`); the pages only the last build used go.
        changes.pagesStaged = true
        orphanPageKeys = try await database.unusedPageKeys()
        self.changes = changes
    }
}
