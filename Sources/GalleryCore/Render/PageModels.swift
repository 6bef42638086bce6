import Foundation

// The values templates see. Every string here is plain text that Mustache escapes with `{{…}}`,
// except fields named `…HTML`, which are produced by trusted code (cmark) for `{{{…}}}`.

/// Site-wide values, the same on every page.
struct SiteContext: Encodable {
    var title: String
    var description: String?
    var generator = "galleryssg"
    /// Seconds per photo in the slideshow, for the script (`viewer.slideshowSeconds`).
    var slideshowSeconds = "5.00"
    /// The `language` tag, for `<html lang>`.
    var lang = "en"
    /// The theme's strings (`ThemeStrings`), `site.t.navPhotos`. Left out of the page's key: the
    /// templates key covers them once for every page.
    var t: [String: String] = [:]
    /// The search script's messages as JSON, for its form's `data-strings`.
    var searchStrings = "{}"

    init(title: String, description: String?, slideshowSeconds: String = "5.00", lang: String = "en", t: [String: String] = [:],
         searchStrings: String = "{}") {
        self.title = title
        self.description = description
        self.slideshowSeconds = slideshowSeconds
        self.lang = lang
        self.t = t
        self.searchStrings = searchStrings
    }

    enum CodingKeys: String, CodingKey {
        case title, description, generator, slideshowSeconds, lang, searchStrings
    }
}

/// Per-page values the layout needs.
struct PageContext: Encodable {
    var title: String
    var description: String?
    /// Prefix from this page to the site root: `""`, `"../"` or `"../../"` (on `404.html`, the
    /// absolute `baseURL` when it is set, since that page is served at any path).
    var root: String
    /// Absolute URL of this page when `baseURL` is set.
    var canonical: String?
    var prevHref: String?
    var nextHref: String?
    /// The static files' URLs from this page, keyed by path under `static/` with every other
    /// character than a letter or digit turned into `_`: `assets.style_css`, `assets.gallery_js`.
    var assets: [String: String]
    var homeHref: String
    /// Nil when the site has no albums or no tags.
    var albumsHref: String?
    var tagsHref: String?
    var feedHref: String
    /// Which navigation entry is current: `home`, `albums` or `tags`.
    var isHome = false
    var isAlbums = false
    var isTags = false
    /// The map page (only with `images.showLocation`), and whether this is it.
    var mapHref: String? = nil
    var isMap = false
    /// OpenGraph and Twitter card values.
    var social: SocialCard
    /// schema.org JSON-LD for `<script type="application/ld+json">`. Templates get it as text, already
    /// safe inside `<script>`; it is encoded only when the page is rendered.
    var jsonLD: ImageObject?
    /// The theme's stylesheet itself as a `data:` URL, linked instead of the file (`404.html`, which
    /// is served at any path and whose links are absolute, so that a local preview still styles it).
    /// A `data:` URL rather than a `<style>` element, which the Nu checker would check as CSS.
    var inlineStylesheet: String? = nil
}

/// What link previews show: OpenGraph (https://ogp.me) and Twitter card tags.
struct SocialCard: Encodable {
    /// `website` for listings, `article` for photo pages.
    var type: String
    /// `summary_large_image` when there is an image, else `summary`.
    var twitterCard: String
    /// Absolute image URL; only when `baseURL` is set, because OpenGraph needs absolute URLs.
    var image: String?
    var imageWidth: Int?
    var imageHeight: Int?
    var imageAlt: String?
}

struct GridTile: Encodable {
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
    /// Inline flex values that make rows keep aspect ratios and fill the width, and the placeholder.
    var style: String
    /// The `img`'s `view-transition-name` (as `data-vt`), shared with the photo page's preview.
    var transitionName: String
}

/// A tag on the tags index, or on a photo page.
struct TagLink: Encodable {
    var name: String
    var href: String
    var count: Int
}

/// One entry of the page list: a page link, or a gap (`…`) standing for the pages left out.
struct PageNumber: Encodable {
    var number: Int
    var href: String
    var isCurrent: Bool
    var isGap = false
}

struct Pagination: Encodable {
    var current: Int
    var total: Int
    var prevHref: String?
    var nextHref: String?
    var pages: [PageNumber]
}

struct GridContext: TemplateContext {
    var site: SiteContext
    var page: PageContext
    var heading: String
    /// A line under the heading: the site description on the home grid, the count on album and tag pages.
    var intro: String?
    /// On album and tag pages: the index they belong to.
    var parentHref: String?
    var parentLabel: String?
    var photos: [GridTile]
    var photoCount: Int
    var pagination: Pagination?
    /// The first photo's page, where the slideshow button starts; nil when the page has no photos.
    var slideshowHref: String? = nil
    /// Album pages: the album's Markdown description as safe HTML (first page only).
    var descriptionHTML: String? = nil
    /// Album pages: the trail from the albums index.
    var breadcrumbs: Breadcrumbs? = nil
    /// Album pages: the sub-albums' cards (first page only); nil when there are none.
    var subAlbums: AlbumCards? = nil
}

/// `albums/index.html`.
struct AlbumsContext: TemplateContext {
    var site: SiteContext
    var page: PageContext
    var heading: String
    var albums: [CollectionTile]
}

/// `tags/index.html`.
struct TagsContext: TemplateContext {
    var site: SiteContext
    var page: PageContext
    var heading: String
    var tags: [TagLink]
}

/// `map/index.html`.
struct MapContext: TemplateContext {
    var site: SiteContext
    var page: PageContext
    var heading: String
    var intro: String
    var tileURL: String
    var attribution: String?
    /// `map/photos.js`, relative to the page.
    var dataHref: String
    /// The list for readers without JavaScript (at most `SiteRenderer.mapListLimit`).
    var photos: [MapPhoto]
    /// `… and 12 more`, when located photos were left out of the list.
    var moreText: String?
}

struct MapPhoto: Encodable {
    var id: String
    var title: String
    var href: String
    var coordinates: String
}

/// `404.html`.
struct NotFoundContext: TemplateContext {
    var site: SiteContext
    var page: PageContext
}

struct MetadataRow: Encodable {
    var label: String
    var value: String
}

struct PhotoContext: Encodable {
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
    /// The preview's `view-transition-name` (as `data-vt`), shared with its grid tiles.
    var transitionName: String
    /// Average colour and aspect ratio for the preview's frame (`--ar`), inline style.
    var stageStyle: String
    /// The grid thumbnail, shown blurred under the preview while it loads (usually cached).
    var thumbSrc: String
    var thumbWidth: Int
    var thumbHeight: Int
    var fullSizeHref: String
    var fullSizeLabel: String
    /// The largest image a browser can show, which the viewer loads when the photo is zoomed past the
    /// preview: the original when it is a JPEG, PNG, WebP, GIF or AVIF, else the largest derivative.
    var zoomSrc: String
    var zoomWidth: Int
    var zoomHeight: Int
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
    var albumHref: String?
    /// This photo on the map page (only with `images.showLocation` and a location).
    var mapHref: String? = nil
    var tags: [TagLink]
    var hasTags: Bool
    var exif: [MetadataRow]
}

struct NeighborLink: Encodable {
    var href: String
    var title: String
    /// The neighbour's preview `srcset` and `sizes`, which the script preloads (next photo only).
    var srcset: String
    var sizes: String
}

struct PhotoPageContext: TemplateContext {
    var site: SiteContext
    var page: PageContext
    var photo: PhotoContext
    var prev: NeighborLink?
    var next: NeighborLink?
    /// The grid page that holds this photo: the home grid's, or its album's when the album is
    /// left out of the home grid (`showInHome: false`); prev/next and the position follow the same list.
    var backHref: String
    var backPage: Int
    /// `All photos`, or the album's title.
    var backLabel: String
    var position: Int
    var total: Int
    /// `All photos (page 2)` and `Photo 3 of 15`, in the site's language.
    var backText: String
    var positionText: String
    /// Photos in albums: the trail from the albums index to the photo.
    var breadcrumbs: Breadcrumbs?
}

/// `feed.xml`, an Atom feed (RFC 4287) of the latest photos. With `baseURL` every link is absolute
/// (many readers ignore `xml:base`); without it they are relative to the site root.
struct FeedContext: TemplateContext {
    var title: String
    var subtitle: String?
    /// The feed's own URL and the site's home page.
    var selfHref: String
    var homeHref: String
    var id: String
    var updated: String
    var entries: [FeedEntry]
}

struct FeedEntry: Encodable {
    var id: String
    var title: String
    var href: String
    var updated: String
    var author: String?
    var authorURI: String?
    /// HTML (escaped once more by the template, as `type="html"` requires): the image and the description.
    var contentHTML: String
    var tags: [String]
    var rights: String?
    /// The photo (its largest preview up to 1200 px wide), for `<link rel="enclosure">`.
    var imageHref: String
    var imageType: String
}

/// `sitemap.xml` (https://www.sitemaps.org/protocol.html); written only when `baseURL` is set.
struct SitemapContext: TemplateContext {
    var urls: [String]
}
