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

    init(snapshot: StateSnapshot, source: String, manifest: [Photo], published: [PhotoPublisher.Published],
         failedIDs: [String], pages: [(path: String, record: PageRecord)]) {
        var changes = StateChanges(source: source)
        changes.manifest = manifest
        var referenced = Set<Digest>()
        for photo in published {
            referenced.formUnion(photo.row.blobKeys)
            switch photo.status {
            case .new: changes.counts.photosNew += 1
            case .changed: changes.counts.photosChanged += 1
            case .unchanged: changes.counts.photosUnchanged += 1
            }
            changes.counts.derivativesMade += photo.made
            changes.counts.derivativesReused += photo.reused
            if photo.writeRow {
                changes.upserts.append(photo.row)
            } else if let prior = snapshot.photos[photo.row.id], prior.position != photo.row.position {
                changes.positions.append((photo.row.id, photo.row.position))
            }
        }
        let positions = Dictionary(manifest.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for id in failedIDs {
            guard let prior = snapshot.photos[id] else { continue }
            referenced.formUnion(prior.blobKeys)
            if let position = positions[id], position != prior.position { changes.positions.append((id, position)) }
        }
        let listed = Set(manifest.map(\.id))
        let removed = snapshot.photos.values.filter { !listed.contains($0.id) }.sorted { $0.id < $1.id }
        changes.removedIDs = removed.map(\.id)
        changes.counts.photosRemoved = removed.count + snapshot.otherSources.count
        let gone = removed + snapshot.otherSources
        orphanImageKeys = Set(gone.flatMap(\.blobKeys)).subtracting(referenced).sorted()

        let locations = Set(manifest.map(\.image.description))
        orphanDownloads = Set(gone.filter { $0.isRemote && !locations.contains($0.location) }.map(\.location)).sorted()
            .compactMap { URL(string: $0).map(ImageLocation.remote) }

        // Sets, not a second table of records: this runs at the build's memory peak.
        var paths = Set<String>(minimumCapacity: pages.count)
        var used = Set<Digest>(minimumCapacity: pages.count)
        for (path, record) in pages {
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
