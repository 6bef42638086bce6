import Foundation
import Mustache

/// One rendered file of the site.
public struct RenderedPage: Sendable {
    /// Path relative to the site root.
    public var path: String
    public var contents: Data

    init(path: String, text: String) {
        self.path = path
        contents = Data(text.utf8)
    }

    init(path: String, contents: Data) {
        self.path = path
        self.contents = contents
    }

    /// Whether this is a page people read (and count), rather than a feed, index or host file.
    public var isHTML: Bool { path.hasSuffix(".html") }
}

/// Renders every file of the site from the theme's Mustache templates: the paged grid, one page
/// per photo, album and tag pages with their indexes, `404.html`, the Atom feed, the sitemap,
/// `robots.txt`, the search index and `_headers`.
public struct SiteRenderer: Sendable {
    let title: String
    let description: String
    let baseURL: URL?
    let pageSize: Int
    let showLocation: Bool
    let exifFields: [String]
    let library: MustacheLibrary
    let assets: Assets

    public init(config: SiteConfig, theme: Theme, assets: Assets) throws {
        title = config.title
        description = config.description
        baseURL = config.baseURL
        pageSize = config.pageSize
        showLocation = config.images.showLocation
        exifFields = config.images.exifFields
        library = try theme.library()
        self.assets = assets
    }

    /// Target row height of the justified grid, in `em` of the grid's font size, which the
    /// stylesheet sets per screen width (16 px on wide screens: 220 px rows).
    static let rowHeightEm = 13.75

    /// Tiles loaded at once on each grid page; the rest wait until they are near the viewport.
    static let eagerTiles = 8

    /// Photos in the Atom feed.
    static let feedEntries = 20

    /// The site's albums and tags, worked out once per render.
    struct Sections {
        var albums: [PhotoCollection]
        var tags: [PhotoCollection]
        /// Item index → slug of its album.
        var albumOfItem: [Int: String]
        /// Tag name → slug.
        var tagSlugs: [String: String]

        init(_ items: [GalleryItem]) {
            albums = PhotoCollection.albums(of: items)
            tags = PhotoCollection.tags(of: items)
            albumOfItem = [:]
            for album in albums { for member in album.members { albumOfItem[member] = album.slug } }
            tagSlugs = Dictionary(tags.map { ($0.name, $0.slug) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Every file of the site: grid pages, photo pages, albums, tags, then the publishing files.
    public func render(_ items: [GalleryItem]) throws -> [RenderedPage] {
        let sections = Sections(items)
        let paginator = Paginator(itemCount: items.count, pageSize: pageSize)
        var pages: [RenderedPage] = []
        for number in 1...paginator.pageCount {
            pages.append(try renderHome(page: number, items: items, paginator: paginator, sections: sections))
        }
        for index in items.indices {
            pages.append(try renderPhoto(at: index, items: items, paginator: paginator, sections: sections))
        }
        pages += try renderCollections(items: items, sections: sections)
        pages.append(try renderNotFound(sections: sections))
        pages += try renderPublishingFiles(items: items, htmlPaths: pages.filter(\.isHTML).map(\.path))
        return pages
    }

    var site: SiteContext {
        SiteContext(title: title, description: description.isEmpty ? nil : description)
    }

    /// A `srcset` value listing each derivative's file (JPEG or WebP) with its width.
    static func srcset(_ derivatives: [Derivative], root: String, path: KeyPath<Derivative, String>) -> String {
        derivatives.map { "\(root)\($0[keyPath: path]) \($0.size.width)w" }.joined(separator: ", ")
    }

    /// The URL of a root-relative path's folder under `baseURL` (`…/page/2/` for `page/2/index.html`).
    func absoluteURL(_ path: String) -> String? {
        let directory = path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path
        return baseURL.map { $0.absoluteString + directory }
    }

    /// The layout's values for the page at a root-relative path.
    func pageContext(path: String, title: String, description: String?, sections: Sections,
                     root explicitRoot: String? = nil) -> PageContext {
        let depth = path.split(separator: "/").count - 1
        let root = explicitRoot ?? String(repeating: "../", count: depth)
        return PageContext(
            title: title, description: description, root: root, canonical: absoluteURL(path),
            assets: assets.urls(root: root), homeHref: root + "index.html",
            albumsHref: sections.albums.isEmpty ? nil : root + "albums/index.html",
            tagsHref: sections.tags.isEmpty ? nil : root + "tags/index.html", feedHref: root + "feed.xml",
            social: SocialCard(type: "website", twitterCard: "summary"))
    }

    /// Adds a photo as the page's link-preview image, when absolute URLs can be made.
    func withSocialImage(_ page: PageContext, _ item: GalleryItem?, derivative: Derivative? = nil) -> PageContext {
        guard let item, let base = baseURL?.absoluteString else { return page }
        var page = page
        let image = derivative ?? item.plan.previewSources.last { $0.size.width <= 1200 } ?? item.plan.preview
        page.social.image = base + image.path
        page.social.imageWidth = image.size.width
        page.social.imageHeight = image.size.height
        page.social.imageAlt = item.altText
        page.social.twitterCard = "summary_large_image"
        return page
    }

    func render(_ context: Any, _ template: String, _ path: String) throws -> RenderedPage {
        guard let text = library.render(context, withTemplate: template) else {
            throw RenderError(description: "\(path): template \(template).mustache is missing")
        }
        return RenderedPage(path: path, text: text)
    }
}
