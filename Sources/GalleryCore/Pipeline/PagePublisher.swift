import Foundation

/// The `pages` step: every grid page and photo page, rendered only when its inputs changed.
///
/// A page's key covers the renderer's inputs key (site settings, templates, format version) and
/// the digests of the photos the page shows, with their positions. A page whose key is cached is
/// linked from the cache into the staging folder; any other page is rendered, cached and linked.
/// Pages are handled one at a time per worker and never held all at once, so memory does not grow
/// with the number of pages.
struct PagePublisher: Sendable {
    let renderer: SiteRenderer
    let writer: StagedWriter
    let cache: BlobCache

    struct Outcome: Sendable {
        var rendered = 0
        var reused = 0
        var bytes = 0
        /// Every page of the site with its key, sorted by path.
        var keys: [(path: String, key: String)] = []
    }

    /// Publishes every page.
    /// - Parameters:
    ///   - digests: One digest per item (`PhotoPublisher.digest`), in item order.
    ///   - jobs: Pages rendered at once.
    /// - Throws: `RenderError`, `StoreError` or `OutputError`.
    func publishAll(_ items: [GalleryItem], digests: [String], jobs: Int) async throws -> Outcome {
        let paginator = Paginator(itemCount: items.count, pageSize: renderer.pageSize)
        let total = paginator.pageCount + items.count
        let workers = max(1, min(jobs, total))
        let parts = try await withThrowingTaskGroup(of: Outcome.self) { group in
            for worker in 0..<workers {
                group.addTask {
                    var outcome = Outcome()
                    var index = worker
                    while index < total {
                        try publish(index, items: items, digests: digests, paginator: paginator, into: &outcome)
                        index += workers
                    }
                    return outcome
                }
            }
            var parts: [Outcome] = []
            for try await part in group { parts.append(part) }
            return parts
        }
        var outcome = Outcome()
        for part in parts {
            outcome.rendered += part.rendered
            outcome.reused += part.reused
            outcome.bytes += part.bytes
            outcome.keys += part.keys
        }
        outcome.keys.sort { $0.path < $1.path }
        return outcome
    }

    /// Page `index` counts grid pages first, then photo pages.
    private func publish(_ index: Int, items: [GalleryItem], digests: [String], paginator: Paginator,
                         into outcome: inout Outcome) throws {
        let isGrid = index < paginator.pageCount
        let path = isGrid ? Paginator.path(ofPage: index + 1) : items[index - paginator.pageCount].pagePath
        let key = isGrid
            ? gridKey(page: index + 1, items: items, digests: digests, paginator: paginator)
            : photoKey(at: index - paginator.pageCount, items: items, digests: digests)
        if cache.isIntact(key) {
            outcome.reused += 1
        } else {
            let page = isGrid
                ? try renderer.renderGrid(page: index + 1, items: items, paginator: paginator)
                : try renderer.renderPhoto(at: index - paginator.pageCount, items: items, paginator: paginator)
            let data = Data(page.html.utf8)
            try cache.put(data, key: key)
            outcome.rendered += 1
            outcome.bytes += data.count
        }
        try writer.link(cache.url(key), to: path)
        outcome.keys.append((path, key))
    }

    private func gridKey(page number: Int, items: [GalleryItem], digests: [String], paginator: Paginator) -> String {
        var key = CacheKey("grid page")
        key.add(renderer.inputsKey)
        key.add(number)
        key.add(paginator.pageCount)
        key.add(items.count)
        for index in paginator.range(ofPage: number) { key.add(digests[index]) }
        return key.finish()
    }

    private func photoKey(at index: Int, items: [GalleryItem], digests: [String]) -> String {
        var key = CacheKey("photo page")
        key.add(renderer.inputsKey)
        key.add(digests[index])
        key.add(index)
        key.add(items.count)
        // The neighbours' links show their path and title.
        for neighbour in [index - 1, index + 1] {
            if items.indices.contains(neighbour) {
                key.add(items[neighbour].pagePath)
                key.add(items[neighbour].photo.title ?? items[neighbour].altText)
            } else {
                key.add("")
            }
        }
        return key.finish()
    }
}
