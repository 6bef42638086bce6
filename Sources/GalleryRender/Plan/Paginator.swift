import GalleryModel

/// Splits the photo list into grid pages: page 1 is `index.html`, page N is `page/N/index.html`.
package struct Paginator: Sendable {
    let itemCount: Int
    package let pageSize: Int

    package init(itemCount: Int, pageSize: Int) {
        precondition(pageSize > 0)
        self.itemCount = itemCount
        self.pageSize = pageSize
    }

    /// At least one page, so an empty gallery still has an index.
    var pageCount: Int { max(1, (itemCount + pageSize - 1) / pageSize) }

    /// The item indices on a 1-based page.
    package func range(ofPage page: Int) -> Range<Int> {
        let start = (page - 1) * pageSize
        return min(start, itemCount)..<min(start + pageSize, itemCount)
    }

    /// The page that holds an item index.
    package func page(ofItem index: Int) -> Int { index / pageSize + 1 }

    /// The root-relative path of a 1-based page.
    package static func path(ofPage page: Int) -> String {
        SiteLayout.listing("", page: page)
    }
}
