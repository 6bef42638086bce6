import Foundation

// The values templates see. Every string here is plain text that Mustache escapes with `{{…}}`,
// except fields named `…HTML`, which are produced by trusted code (cmark) for `{{{…}}}`.

/// Site-wide values, the same on every page.
package struct SiteContext: Encodable {
    package var title: String
    package var description: String?
    package var generator = "galleryssg"
    /// Seconds per photo in the slideshow, for the script (`viewer.slideshowSeconds`).
    package var slideshowSeconds = "5.00"
    /// The `language` tag, for `<html lang>`.
    package var lang = "en"
    /// The theme's strings (`ThemeStrings`), `site.t.navPhotos`. Left out of the page's key: the
    /// templates key covers them once for every page.
    package var t: [String: String] = [:]
    /// The search script's messages as JSON, for its form's `data-strings`.
    var searchStrings = "{}"

    package init(
        title: String, description: String?, slideshowSeconds: String = "5.00", lang: String = "en",
        t: [String: String] = [:],
        searchStrings: String = "{}"
    ) {
        self.title = title
        self.description = description
        self.slideshowSeconds = slideshowSeconds
        self.lang = lang
        self.t = t
        self.searchStrings = searchStrings
    }

    package enum CodingKeys: String, CodingKey {
        case title, description, generator, slideshowSeconds, lang, searchStrings
    }
}

/// Per-page values the layout needs.
package struct PageContext: Encodable {
    package var title: String
    package var description: String?
    /// Prefix from this page to the site root: `""`, `"../"` or `"../../"` (on `404.html`, the
    /// absolute `baseURL` when it is set, since that page is served at any path).
    package var root: String
    /// Absolute URL of this page when `baseURL` is set.
    package var canonical: String?
    var prevHref: String?
    var nextHref: String?
    /// The static files' URLs from this page, keyed by path under `static/` with every other
    /// character than a letter or digit turned into `_`: `assets.style_css`, `assets.gallery_js`.
    package var assets: [String: String]
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
    /// `<meta name="robots" content="noindex">`: the pages of unlisted albums and their photos.
    package var noindex = false
    /// OpenGraph and Twitter card values.
    var social: SocialCard
    /// schema.org JSON-LD for `<script type="application/ld+json">`. Templates get it as text, already
    /// safe inside `<script>`; it is encoded only when the page is rendered.
    package var jsonLD: ImageObject?
    /// The theme's stylesheet itself as a `data:` URL, linked instead of the file (`404.html`, which
    /// is served at any path and whose links are absolute, so that a local preview still styles it).
    /// A `data:` URL rather than a `<style>` element, which the Nu checker would check as CSS.
    var inlineStylesheet: String? = nil
}

/// What link previews show: OpenGraph (https://ogp.me) and Twitter card tags.
package struct SocialCard: Encodable {
    /// `website` for listings, `article` for photo pages.
    package var type: String
    /// `summary_large_image` when there is an image, else `summary`.
    var twitterCard: String
    /// Absolute image URL; only when `baseURL` is set, because OpenGraph needs absolute URLs.
    package var image: String?
    var imageWidth: Int?
    var imageHeight: Int?
    var imageAlt: String?
}

package struct GridTile: Encodable {
    package var href: String
    package var src: String
    package var srcset: String
    /// The same sizes as WebP, for a `<picture>` source; nil unless `images.webp` is on.
    var webpSrcset: String?
    /// The same sizes as AVIF, for a `<picture>` source before the WebP one; nil unless `images.avif` is on.
    var avifSrcset: String?
    package var sizes: String
    package var width: Int
    package var height: Int
    package var alt: String
    package var title: String?
    /// `eager` for the first row or two, `lazy` below the fold.
    var loading: String
    /// Inline flex values that make rows keep aspect ratios and fill the width, and the placeholder.
    package var style: String
    /// The `img`'s `view-transition-name` (as `data-vt`), shared with the photo page's preview.
    var transitionName: String
    /// A clip's length (`0:07`), shown on its tile with a play badge; nil for a still.
    package var duration: String? = nil
}

/// A tag on the tags index, or on a photo page.
package struct TagLink: Encodable {
    package var name: String
    package var href: String
    package var count: Int
}

/// One entry of the page list: a page link, or a gap (`…`) standing for the pages left out.
package struct PageNumber: Encodable {
    package var number: Int
    package var href: String
    package var isCurrent: Bool
    var isGap = false
}

package struct Pagination: Encodable {
    package var current: Int
    package var total: Int
    var prevHref: String?
    var nextHref: String?
    package var pages: [PageNumber]
}

package struct GridContext: TemplateContext {
    package var site: SiteContext
    package var page: PageContext
    package var heading: String
    /// A line under the heading: the site description on the home grid, the count on album and tag pages.
    var intro: String?
    /// On album and tag pages: the index they belong to.
    var parentHref: String?
    var parentLabel: String?
    package var photos: [GridTile]
    package var photoCount: Int
    package var pagination: Pagination?
    /// The first photo's page, where the slideshow button starts; nil when the page has no photos.
    var slideshowHref: String? = nil
    /// Album pages: the album's Markdown description as safe HTML (first page only).
    var descriptionHTML: String? = nil
    /// Album pages: the trail from the albums index.
    package var breadcrumbs: Breadcrumbs? = nil
    /// Album pages: the sub-albums' cards (first page only); nil when there are none.
    var subAlbums: AlbumCards? = nil
    /// Album pages with `download: album`: the album's zip (first page only).
    package var download: DownloadLink? = nil
}

/// A link that downloads a file (`<a href download="name">`): a photo's, or an album's zip.
package struct DownloadLink: Encodable, Sendable {
    package var href: String
    /// The file name the browser saves it as.
    package var name: String
    package var label: String
}

/// `albums/index.html`.
package struct AlbumsContext: TemplateContext {
    package var site: SiteContext
    package var page: PageContext
    package var heading: String
    package var albums: [CollectionTile]
}

/// `tags/index.html`.
package struct TagsContext: TemplateContext {
    package var site: SiteContext
    package var page: PageContext
    package var heading: String
    package var tags: [TagLink]
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
package struct NotFoundContext: TemplateContext {
    package var site: SiteContext
    package var page: PageContext
}

package struct MetadataRow: Encodable {
    package var label: String
    package var value: String
}

package struct PhotoContext: Encodable {
    package var id: String
    package var title: String
    package var alt: String
    var descriptionHTML: String?
    package var src: String
    package var srcset: String
    /// The same sizes as WebP, for a `<picture>` source; nil unless `images.webp` is on.
    var webpSrcset: String?
    /// The same sizes as AVIF, for a `<picture>` source before the WebP one; nil unless `images.avif` is on.
    var avifSrcset: String?
    package var sizes: String
    package var width: Int
    package var height: Int
    /// The preview's `view-transition-name` (as `data-vt`), shared with its grid tiles.
    var transitionName: String
    /// Average colour and aspect ratio for the preview's frame (`--ar`), inline style.
    var stageStyle: String
    /// The grid thumbnail, shown blurred under the preview while it loads (usually cached).
    var thumbSrc: String
    var thumbWidth: Int
    var thumbHeight: Int
    package var fullSizeHref: String
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
    package var location: String?
    var locationHref: String?
    var takenAtDisplay: String?
    var takenAtMachine: String?
    package var author: String?
    var authorHref: String?
    var licenseName: String?
    var licenseHref: String?
    package var album: String?
    var albumHref: String?
    /// This photo on the map page (only with `images.showLocation` and a location).
    var mapHref: String? = nil
    package var tags: [TagLink]
    var hasTags: Bool
    package var exif: [MetadataRow]
    /// A clip's player; nil for a still.
    package var video: VideoContext? = nil
    /// A Live Photo's motion file, played over the still; nil for other photos.
    var motionSrc: String? = nil
    /// Whether the motion is an animation's (a GIF or WebP), which loops.
    package var animated = false
    /// Whether the motion is an animation kept as it is, shown as an image rather than a video.
    var motionIsImage = false
    /// The motion file's format as a link names it: `MP4`, `GIF`, `WEBP`.
    var motionFormat: String? = nil
    /// The photo's file to download, under an album (or site) whose `download` is `photo` or `album`.
    package var download: DownloadLink? = nil
}

/// A clip on its page: `<video controls playsinline preload="none" poster width height>`.
package struct VideoContext: Encodable {
    /// The web file (H.264 and AAC in MP4).
    package var src: String
    package var type = "video/mp4"
    /// The poster's preview, shown before the clip plays.
    package var poster: String
    package var width: Int
    package var height: Int
    /// `0:07`, and `PT7S` for `<time datetime>`.
    package var duration: String
    var durationMachine: String
}

package struct NeighborLink: Encodable {
    package var href: String
    package var title: String
    /// The neighbour's preview `srcset` and `sizes`, which the script preloads (next photo only).
    package var srcset: String
    package var sizes: String
}

package struct PhotoPageContext: TemplateContext {
    package var site: SiteContext
    package var page: PageContext
    package var photo: PhotoContext
    package var prev: NeighborLink?
    package var next: NeighborLink?
    /// The grid page that holds this photo: the home grid's, or its album's when the album is
    /// left out of the home grid (`showInHome: false`); prev/next and the position follow the same list.
    var backHref: String
    var backPage: Int
    /// `All photos`, or the album's title.
    var backLabel: String
    package var position: Int
    package var total: Int
    /// `All photos (page 2)` and `Photo 3 of 15`, in the site's language.
    var backText: String
    var positionText: String
    /// Photos in albums: the trail from the albums index to the photo.
    package var breadcrumbs: Breadcrumbs?
}

/// `feed.xml`, an Atom feed (RFC 4287) of the latest photos. With `baseURL` every link is absolute
/// (many readers ignore `xml:base`); without it they are relative to the site root.
package struct FeedContext: TemplateContext {
    package var title: String
    var subtitle: String?
    /// The feed's own URL and the site's home page.
    var selfHref: String
    var homeHref: String
    package var id: String
    package var updated: String
    package var entries: [FeedEntry]
}

package struct FeedEntry: Encodable {
    package var id: String
    package var title: String
    package var href: String
    package var updated: String
    package var author: String?
    var authorURI: String?
    /// HTML (escaped once more by the template, as `type="html"` requires): the image and the description.
    var contentHTML: String
    package var tags: [String]
    package var rights: String?
    /// The photo (its largest preview up to 1200 px wide), for `<link rel="enclosure">`.
    var imageHref: String
    var imageType: String
    /// A clip's web file, a second enclosure; nil for a still.
    var videoHref: String? = nil
}

/// `sitemap.xml` (https://www.sitemaps.org/protocol.html); written only when `baseURL` is set.
package struct SitemapContext: TemplateContext {
    package var urls: [SitemapURL]
}

/// One page of the sitemap; a clip's page names its video (https://developers.google.com/search/docs/crawling-indexing/sitemaps/video-sitemaps).
package struct SitemapURL: Encodable {
    package var loc: String
    package var video: SitemapVideo? = nil
}

package struct SitemapVideo: Encodable {
    package var thumbnail: String
    package var title: String
    package var description: String
    var contentLoc: String
    /// Whole seconds.
    package var duration: Int
}
