import Foundation
import GalleryKeys
import GalleryModel
import Mustache

/// One page of the site, named before anything about it is worked out.
package enum SitePage: Sendable, Equatable {
    /// A page of the home grid (1-based).
    case home(page: Int)
    /// The page of the item at this index.
    case photo(index: Int)
    /// A page of the album or tag at this index of the site's sections.
    case album(index: Int, page: Int)
    case tag(index: Int, page: Int)
    /// The albums and tags indexes.
    case albums, tags
    case notFound, feed, sitemap
    /// `map/index.html`, with `images.showLocation`.
    case map

    /// Whether people read the page at this site path (and the build counts it), rather than a feed,
    /// a sitemap or the search index. The one rule for both the page plan and the cached-site shortcut.
    package static func isHTML(path: String) -> Bool { path.hasSuffix(".html") }
}

/// Every page of a site and what they are made from: the published photos, their albums and tags,
/// and the grid's paging.
package struct SitePlan: Sendable {
    /// The published photos in the site's order, read back a window at a time (`ItemList`).
    package let items: ItemList
    package let sections: SiteRenderer.Sections
    /// Pages the home grid: `home`'s photos.
    let paginator: Paginator
    package let pages: [SitePage]
    /// Item indices of the home grid, in order: every photo but those of albums with `showInHome: false`.
    package let home: [Int]
    /// Item index → its position in `home`.
    let homePosition: [Int: Int]
    /// A digest of the sources' album settings, which pages show but photo rows do not cover
    /// (and of the album zips, once the `downloads` step made them: `adding(downloads:)`).
    package var albumsKey: Digest
    /// Where the pages find each photo's placeholder image.
    package let placeholders: PlaceholderLookup
    /// Album index → its zip, for albums whose `download` is `album` (the `downloads` step).
    package var downloads: [Int: AlbumDownload] = [:]

    /// The plan with the album zips its album pages link, which the site key then covers.
    package func adding(downloads: [Int: AlbumDownload]) -> SitePlan {
        var plan = self
        plan.downloads = downloads
        var key = CacheKey("album zips")
        key.add(albumsKey)
        for (index, zip) in downloads.sorted(by: { $0.key < $1.key }) {
            key.add(index)
            key.add(zip.path)
            key.add(zip.count)
            key.add(Int(zip.bytes))
        }
        plan.albumsKey = key.finish()
        return plan
    }
}

/// One album's zip in the site: where it is, how many photos it holds and its size.
package struct AlbumDownload: Sendable, Equatable {
    /// Relative to the site root.
    package var path: String
    package var count: Int
    package var bytes: Int64

    package init(path: String, count: Int, bytes: Int64) {
        self.path = path
        self.count = count
        self.bytes = bytes
    }
}

/// The values a template shows: its fields are found by name (`MustacheParent`, see
/// PageModels+Mustache.swift) and make the page's cache key (`Encodable`, see `InputDigest`).
/// The page-level models (`GridContext`, `PhotoPageContext`…) declare it in PageModels.swift.
package protocol TemplateContext: MustacheParent, Encodable, Sendable {}

/// A page ready to key and render: where it goes, its template and its values.
package struct PageModel: Sendable {
    package var path: String
    package var template: String
    package var context: any TemplateContext

    /// The page's input key: its path, template and values, under `templatesKey`, which covers
    /// the theme. Two builds give a page the same key exactly when it would render the same.
    package func inputKey(templatesKey: Digest) throws -> Digest {
        var key = CacheKey("page inputs")
        key.add(templatesKey)
        key.add(path)
        key.add(template)
        try InputDigest.add(context, to: &key)
        return key.finish()
    }
}
