import Foundation
import GalleryKeys
import GalleryModel
import GalleryOutput
import GalleryRender
import GalleryStore

/// The `pages` step: works out every page's model, renders the pages whose inputs changed, and
/// stages every page through the content-addressed page cache.
///
/// A page's input key is the digest of its whole template model (every value it shows: its photo,
/// its neighbours, its grid page, album and tag links, the fingerprinted asset URLs) plus the
/// templates (`PageModel.inputKey`). When the key matches the last build's and the cached page is
/// intact, the cached file is linked without rendering; otherwise the page is rendered and its
/// bytes are cached under their SHA-256. The output is therefore always exactly what a clean build
/// makes. Pages are worked on in parallel chunks, and only keys are kept, never rendered pages; each
/// chunk's keys go to the state's pending table (`StateDatabase.addPendingPages`), so memory does not
/// grow with the number of pages. The last build's page records are read from the state as they are
/// needed too: a chunk's with one query, or a window at a time when every page is linked as it was.
package struct PagePublisher: Sendable {
    package let writer: StagedWriter
    package let cache: BlobCache
    /// Whether the last build's pages (the state's `page` table) may be reused; false for `build --rebuild`.
    let reusePages: Bool
    /// The last build's pages read and linked at a time when all of them are (`linkPrevious`).
    var linkWindow = 4096
    /// The key of everything the last build's pages were made from; nil for `build --rebuild`.
    let previousSiteKey: Digest?
    /// Where the staged pages' records go, for the state step to apply.
    package let database: StateDatabase

    package struct Outcome: Sendable {
        /// HTML pages rendered because their inputs changed (or their cached file was damaged).
        package var rendered = 0
        /// HTML pages whose inputs were unchanged, linked from the cache.
        package var reused = 0
        /// HTML pages in all.
        package var pages = 0
        package var bytes = 0
        /// The pages, feed, sitemap and search index a chunk staged, with their keys, until `publish`
        /// writes them to the state's pending table; always empty in the site's outcome.
        package var records: [(path: String, record: PageRecord)] = []
        /// The new records of the page blobs a chunk stored or re-checked (`BlobFile.record`), until
        /// `publish` writes them to the state's pending table with `records`; always empty in the site's outcome.
        package var blobs: [BlobRecord] = []
        /// Whether the pages are exactly the last build's (nothing is pending then: the state's
        /// table is the list, and a second copy of it would be the largest thing a no-op holds).
        var samePagesAsBefore = false
        /// The key of everything the pages were made from (`siteKey`).
        package var siteKey: Digest?
        /// Seconds spent making and storing `robots.txt`, the search index and the map's data (nearly all of it the index).
        var plainFileSeconds = 0.0

        /// Counts the page at `path` if people read it (`SitePage.isHTML(path:)`).
        package mutating func count(_ path: String, reused wasReused: Bool) {
            guard SitePage.isHTML(path: path) else { return }
            pages += 1
            if wasReused { reused += 1 } else { rendered += 1 }
        }

        package mutating func merge(_ other: Outcome) {
            rendered += other.rendered
            reused += other.reused
            pages += other.pages
            bytes += other.bytes
            plainFileSeconds += other.plainFileSeconds
        }
    }

    /// Pages one task works on before it reports; small enough to spread work evenly, large
    /// enough that task overhead does not show.
    package static let chunkSize = 128
    /// Page records written to the pending table per transaction (at least).
    static let pendingBatch = 512

    /// The key of everything a site's pages are made from: the renderer's settings (templates,
    /// config, static files, this executable), the sources' album settings and, in order, each
    /// published photo's state row, which fixes its item: metadata, original, derivatives,
    /// placeholder. When it matches the last build's, every page's model would too, so the pages
    /// are linked without working them out. `rows` calls its argument with each row, in manifest
    /// order (`PhotoRows.forEach`), which reads them back from the state rather than from memory.
    package static func siteKey(
        renderer: SiteRenderer, albumsKey: Digest,
        rows: (_ each: (PhotoState) -> Void) async throws -> Void
    ) async throws -> Digest {
        var key = CacheKey("site pages")
        key.add(renderer.settingsKey)
        key.add(albumsKey)
        // The digests as their bytes, not their hex: this key is only compared with the last
        // build's, and hex doubles what is hashed and costs a conversion a digest.
        try await rows { row in
            key.add(row.id)
            key.add(bytesOf: row.metadataHash)
            key.add(row.location)
            key.add(bytesOf: row.contentHash)
            key.add(bytesOf: row.thumbnailKey)
            key.add(row.blobKeys.count)
            for blobKey in row.blobKeys { key.add(bytesOf: blobKey) }
        }
        return key.finish()
    }

    package func publish(
        _ plan: SitePlan, renderer: SiteRenderer, jobs: Int,
        rows: (_ each: (PhotoState) -> Void) async throws -> Void
    ) async throws -> Outcome {
        let siteKey = try await Self.siteKey(renderer: renderer, albumsKey: plan.albumsKey, rows: rows)
        if siteKey == previousSiteKey, var unchanged = try await linkPrevious(jobs: jobs) {
            unchanged.siteKey = siteKey
            return unchanged
        }
        var outcome = Outcome()
        outcome.siteKey = siteKey
        let chunks = stride(from: 0, to: plan.pages.count, by: Self.chunkSize).map {
            $0..<min($0 + Self.chunkSize, plan.pages.count)
        }
        try await withThrowingTaskGroup(of: Outcome.self) { group in
            var next = 0
            func start() {
                guard next < chunks.count else { return }
                let range = chunks[next]
                next += 1
                group.addTask { try await publish(plan.pages[range], plan: plan, renderer: renderer) }
            }
            // The search index and robots.txt, made whole every build, alongside the pages.
            group.addTask { try publishPlainFiles(plan, renderer: renderer) }
            for _ in 0..<max(1, jobs) { start() }
            var batch: [(path: String, record: PageRecord)] = []
            var blobs: [BlobRecord] = []
            while let done = try await group.next() {
                outcome.merge(done)
                batch += done.records
                blobs += done.blobs
                cache.recorded(done.blobs)
                if batch.count >= Self.pendingBatch {
                    try await database.addPendingPages(batch, blobs: blobs)
                    batch.removeAll(keepingCapacity: true)
                    blobs.removeAll(keepingCapacity: true)
                }
                start()
            }
            try await database.addPendingPages(batch, blobs: blobs)
        }
        return outcome
    }

    /// Links every page of the last build from the cache, in parallel, a window at a time, or
    /// returns nil (having linked some) when one of them is missing or damaged, so the pages are
    /// worked out as usual. The records of pages re-hashed on the way go to the pending table with
    /// each window.
    private func linkPrevious(jobs: Int) async throws -> Outcome? {
        guard reusePages else { return nil }
        let parts = max(1, jobs)
        var outcome = Outcome()
        var after: String?
        while true {
            let window = try await database.priorPages(after: after, limit: linkWindow)
            guard let last = window.last else { break }
            after = last.path
            let linked = try await withThrowingTaskGroup(of: Outcome?.self) { group -> Outcome? in
                for part in 0..<parts {
                    group.addTask {
                        var outcome = Outcome()
                        for index in stride(from: part, to: window.count, by: parts) {
                            try Task.checkCancellation()
                            let (path, key) = window[index]
                            guard let key, try await linkCached(key, to: path, outcome: &outcome) else { return nil }
                            outcome.count(path, reused: true)
                        }
                        return outcome
                    }
                }
                var outcome = Outcome()
                for try await part in group {
                    guard let part else {
                        group.cancelAll()
                        return nil
                    }
                    outcome.merge(part)
                    outcome.blobs += part.blobs  // re-hashed pages' new records
                }
                return outcome
            }
            guard let linked else { return nil }
            outcome.merge(linked)
            try await database.addPendingPages([], blobs: linked.blobs)
            cache.recorded(linked.blobs)
        }
        guard after != nil else { return nil }  // the last build published no pages
        outcome.samePagesAsBefore = true
        return outcome
    }

    private func publishPlainFiles(_ plan: SitePlan, renderer: SiteRenderer) throws -> Outcome {
        var outcome = Outcome()
        let started = ContinuousClock.now
        // Each file is stored as soon as it is made: the search index of a large site is hundreds of MB.
        try renderer.plainFiles(plan) { file in
            let key = Self.contentKey(file.contents)
            try store(file.contents, key: key, path: file.path, found: cache.fileWithoutWaiting(key), outcome: &outcome)
            outcome.records.append((file.path, PageRecord(inputs: nil, key: key)))
        }
        outcome.plainFileSeconds = started.secondsElapsed
        return outcome
    }

    private func publish(_ pages: ArraySlice<SitePage>, plan: SitePlan, renderer: SiteRenderer) async throws -> Outcome
    {
        var outcome = Outcome()
        // The chunk's records of the last build, read with one query.
        let previous =
            reusePages ? try await database.priorPages(paths: pages.map { renderer.path(of: $0, in: plan) }) : [:]
        for page in pages {
            try Task.checkCancellation()
            let model = try renderer.model(of: page, in: plan)
            let inputs = try model.inputKey(templatesKey: renderer.templatesKey)
            var record: PageRecord
            if let prior = previous[model.path], prior.inputs == inputs,
                try await linkCached(prior.key, to: model.path, outcome: &outcome)
            {
                record = prior
                outcome.count(model.path, reused: true)
            } else {
                let bytes = try renderer.render(model)
                record = PageRecord(inputs: inputs, key: Self.contentKey(bytes))
                try store(
                    bytes, key: record.key, path: model.path, found: await cache.file(record.key), outcome: &outcome)
                outcome.count(model.path, reused: false)
            }
            outcome.records.append((model.path, record))
        }
        return outcome
    }

    /// Puts the cached page `key` at `path`: kept when the staging folder holds it already (it was
    /// the last site's), else linked from the cache. False when the cache has no intact copy.
    private func linkCached(_ key: Digest, to path: String, outcome: inout Outcome) async throws -> Bool {
        if writer.holds(key, of: cache, at: path) {
            try writer.keep(path)
            return true
        }
        guard let file = await cache.file(key) else { return false }
        if let record = file.record { outcome.blobs.append(record) }
        try writer.link(file, to: path)
        return true
    }

    /// Caches bytes under their key (unless an intact copy is there) and links them into the site.
    /// - Parameter found: The cache's intact copy (`BlobCache.file`), if any.
    private func store(_ bytes: Data, key: Digest, path: String, found: BlobFile?, outcome: inout Outcome) throws {
        let file: BlobFile
        if let found {
            file = found
        } else {
            file = try cache.put(bytes, key: key, sha256: key)
            outcome.bytes += bytes.count
        }
        if let record = file.record { outcome.blobs.append(record) }
        try writer.link(file, to: path)
    }

    /// A cached page is named by the SHA-256 of its bytes.
    static func contentKey(_ bytes: Data) -> Digest { CacheKey.sha256(bytes) }
}
