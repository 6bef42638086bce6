import Foundation

// The values templates see. Every string here is plain text that Mustache escapes with `{{…}}`,
// except fields named `…HTML`, which are produced by trusted code (cmark) for `{{{…}}}`.

/// Site-wide values, the same on every page.
struct SiteContext {
    var title: String
    var description: String?
    var generator = "galleryssg"
}

/// Per-page values the layout needs.
struct PageContext {
    var title: String
    var description: String?
    /// Prefix from this page to the site root: `""`, `"../"` or `"../../"`.
    var root: String
    /// Absolute URL of this page when `baseURL` is set.
    var canonical: String?
    var prevHref: String?
    var nextHref: String?
}

struct GridTile {
    var href: String
    var src: String
    var srcset: String
    /// The same sizes as WebP, for a `<picture>` source; nil unless `images.webp` is on.
    var webpSrcset: String?
    var sizes: String
    var width: Int
    var height: Int
    var alt: String
    var title: String?
    /// `eager` for the first row or two, `lazy` below the fold.
    var loading: String
    /// Inline flex values that make rows keep aspect ratios and fill the width.
    var style: String
}

struct PageNumber {
    var number: Int
    var href: String
    var isCurrent: Bool
}

struct Pagination {
    var current: Int
    var total: Int
    var prevHref: String?
    var nextHref: String?
    var pages: [PageNumber]
}

struct GridContext {
    var site: SiteContext
    var page: PageContext
    var heading: String
    var photos: [GridTile]
    var photoCount: Int
    var pagination: Pagination?
}

struct MetadataRow {
    var label: String
    var value: String
}

struct PhotoContext {
    var id: String
    var title: String
    var alt: String
    var descriptionHTML: String?
    var src: String
    var srcset: String
    /// The same sizes as WebP, for a `<picture>` source; nil unless `images.webp` is on.
    var webpSrcset: String?
    var sizes: String
    var width: Int
    var height: Int
    var style: String
    var fullSizeHref: String
    var fullSizeLabel: String
    /// The photo's page at its source, such as Flickr.
    var sourceHref: String?
    var sourceLabel: String?
    /// Shown only when the site sets `images.showLocation`.
    var location: String?
    var locationHref: String?
    var takenAtDisplay: String?
    var takenAtMachine: String?
    var author: String?
    var authorHref: String?
    var licenseName: String?
    var licenseHref: String?
    var album: String?
    var tags: [String]
    var hasTags: Bool
    var exif: [MetadataRow]
}

struct NeighborLink {
    var href: String
    var title: String
}

struct PhotoPageContext {
    var site: SiteContext
    var page: PageContext
    var photo: PhotoContext
    var prev: NeighborLink?
    var next: NeighborLink?
    var backHref: String
    var backPage: Int
    var position: Int
    var total: Int
}
