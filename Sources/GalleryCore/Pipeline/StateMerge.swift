import Foundation

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
    ///   - published: Every photo of the manifest that was published, in manifest order.
    ///   - failed: The others; a photo is in the manifest if and only if it is in one of the two.
    init(snapshot: StateSnapshot, source: String, published: [PhotoPublisher.Published],
         failed: [PhotoPublisher.Failed], pages: PagePublisher.Outcome) {
        var changes = StateChanges(source: source)
        var referenced = Set<Digest>()
        // Which of the state's rows the manifest still lists, by row: no set of 100,000 ids.
        var listed = [Bool](repeating: false, count: snapshot.photos.count)
        changes.upserts.reserveCapacity(published.lazy.filter(\.writeRow).count)
        for photo in published {
            if let row = snapshot.photos.row(of: photo.row.id) { listed[row] = true }
            referenced.formUnion(photo.row.blobKeys)
            switch photo.status {
            case .new: changes.counts.photosNew += 1
            case .changed: changes.counts.photosChanged += 1
            case .unchanged: changes.counts.photosUnchanged += 1
            }
            changes.counts.derivativesMade += photo.made
            changes.counts.derivativesReused += photo.reused
            if photo.writeRow {
                changes.upserts.append((photo.row, photo.metadata))
            } else if let prior = snapshot.photos[photo.row.id], prior.position != photo.row.position {
                changes.positions.append((photo.row.id, photo.row.position))
            }
        }
        for photo in failed {
            guard let row = snapshot.photos.row(of: photo.id) else { continue }
            listed[row] = true
            let prior = snapshot.photos.values[row]
            referenced.formUnion(prior.blobKeys)
            if photo.position != prior.position { changes.positions.append((photo.id, photo.position)) }
        }
        let removed = snapshot.photos.values.indices.filter { !listed[$0] }.map { snapshot.photos.values[$0] }.sorted { $0.id < $1.id }
        changes.removedIDs = removed.map(\.id)
        changes.counts.photosRemoved = removed.count + snapshot.otherSources.count
        let gone = removed + snapshot.otherSources
        orphanImageKeys = Set(gone.flatMap(\.blobKeys)).subtracting(referenced).sorted()

        let goneRemote = gone.filter(\.isRemote)
        if goneRemote.isEmpty {
            orphanDownloads = []
        } else {
            let locations = Set(published.map(\.row.location) + failed.map(\.location))
            orphanDownloads = Set(goneRemote.filter { !locations.contains($0.location) }.map(\.location)).sorted()
                .compactMap { URL(string: $0).map(ImageLocation.remote) }
        }

        guard !pages.samePagesAsBefore else {
            // Every page is the last build's: nothing to write, delete or forget.
            orphanPageKeys = []
            self.changes = changes
            return
        }
        // Sets, not a second table of records: this runs at the build's memory peak.
        var paths = Set<String>(minimumCapacity: pages.records.count)
        var used = Set<Digest>(minimumCapacity: pages.records.count)
        for (path, record) in pages.records {
            paths.insert(path)
            used.insert(record.key)
            if snapshot.pages[path] != record { changes.pageUpserts.append((path, record)) }
        }
        changes.pageDeletes = snapshot.pages.keys.filter { !paths.contains($0) }.sorted()
        var orphanPages = Set<Digest>()
        for record in snapshot.pages.values where !used.contains(record.key) { orphanPages.insert(record.key) }
        orphanPageKeys = orphanPages.sorted()
        self.changes = changes
    }
}
