import Foundation

/// The `pages` step's output side: stages every rendered file through the content-addressed page
/// cache.
///
/// Every page is rendered on every build, because a page shows much besides its own photo (its
/// neighbours, the grid page holding it, album and tag links whose slugs depend on the whole
/// collection, the feed's latest photos), and a key that forgot one of those would publish a stale
/// page. The rendered bytes are the key instead: a page whose bytes are already cached is linked
/// from the cache (counted as reused) and only new or changed bytes are written. Output is
/// therefore always exactly what a clean build makes.
struct PagePublisher: Sendable {
    let writer: StagedWriter
    let cache: BlobCache

    struct Outcome: Sendable {
        /// HTML pages whose bytes were new or changed since they were last cached.
        var rendered = 0
        /// HTML pages whose bytes were already cached.
        var reused = 0
        /// HTML pages in all.
        var pages = 0
        var bytes = 0
        /// Every staged file (HTML, feed, sitemap, search index) with its cache key, sorted by path.
        var keys: [(path: String, key: String)] = []
    }

    func publishAll(_ pages: [RenderedPage]) throws -> Outcome {
        var outcome = Outcome()
        for page in pages {
            var key = CacheKey("page")
            key.add(page.contents)
            let digest = key.finish()
            let cached = cache.isIntact(digest)
            if !cached {
                try cache.put(page.contents, key: digest)
                outcome.bytes += page.contents.count
            }
            if page.isHTML {
                outcome.pages += 1
                if cached { outcome.reused += 1 } else { outcome.rendered += 1 }
            }
            try writer.link(cache.url(digest), to: page.path)
            outcome.keys.append((page.path, digest))
        }
        outcome.keys.sort { $0.path < $1.path }
        return outcome
    }
}
