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
struct StateMerge {
    /// The rows, pages and counts to write; blobs and learnt facts are added by the caller.
    let changes: StateChanges
    /// Derivatives and published originals that only removed photos used.
    let orphanImageKeys: [Digest]
    /// Cached pages that no page of this build uses any more.
    let orphanPageKeys: [Digest]
    /// Downloaded originals that no photo of the manifest uses any more.
    let orphanDownloads: [ImageLocation]

    /// - Parameters:
    ///   - priors: The last build's rows, which are read from the state, not held: the rows the
    ///     manifest no longer lists are found by a scan of their ids (`unlistedRows`).
    ///   - window: Rows read back per query (`PhotoRows.forEach`).
    ///   - published: What the build kept of every photo of the manifest that was published, in manifest order.
    ///   - tally: Their counts.
    ///   - failed: The others; a photo is in the manifest if and only if it is in one of the two.
    ///   - database: The state, whose pending tables hold the build's written rows and staged pages;
    ///     the rows are read back (`PhotoRows.forEach`) only when removed photos leave cached files or
    ///     downloads that may be orphans.
    init(
        priors: PriorPhotos, window: Int = 4096, published: [PhotoPublisher.PublishedRow], tally: PhotoPublisher.Tally,
        failed: [PhotoPublisher.Failed], pages: PagePublisher.Outcome, database: StateDatabase
    ) async throws {
        var changes = StateChanges(source: priors.source)
        changes.counts.photosNew = tally.new
        changes.counts.photosChanged = tally.changed
        changes.counts.photosUnchanged = tally.unchanged
        changes.counts.derivativesMade = tally.made
        changes.counts.derivativesReused = tally.reused
        // Which of the state's rows the manifest still lists, by `rowid`: no set of 100,000 ids.
        var listed = published.compactMap { $0.prior >= 0 ? $0.prior : nil }
        var failedPriors: [PhotoState] = []
        for photo in failed {
            guard let prior = try priors.row(photo.id) else { continue }
            listed.append(prior.rowid)
            failedPriors.append(prior.state)
            if photo.position != prior.state.position { changes.positions.append((photo.id, photo.position)) }
        }
        listed.sort()
        let (unlisted, otherSources) = try await database.unlistedRows(source: priors.source, listed: listed)
        listed = []
        let removed = unlisted.sorted { $0.id < $1.id }
        changes.removedIDs = removed.map(\.id)
        changes.counts.photosRemoved = removed.count + otherSources.count

        // What the gone rows used, less what a photo of this build still uses: only those keys and
        // downloads are looked for in the rows, so nothing the size of the manifest is gathered.
        let gone = removed + otherSources
        var orphanKeys = Set(gone.flatMap(\.blobKeys))
        var orphanLocations = Set(gone.filter(\.isRemote).map(\.location))
        if !orphanKeys.isEmpty || !orphanLocations.isEmpty {
            for photo in failed { orphanLocations.remove(photo.location) }
            for prior in failedPriors { orphanKeys.subtract(prior.blobKeys) }
            try await PhotoRows.forEach(published, database: database, window: window) { row in
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
