import Foundation
import GalleryConfig
import GalleryKeys
import GalleryModel
import Mustache

/// One file of the site that is made whole rather than from a template (`robots.txt`, the search index).
package struct RenderedPage: Sendable {
    /// Path relative to the site root.
    package var path: String
    package var contents: Data

    package init(path: String, text: String) {
        self.path = path
        contents = Data(text.utf8)
    }

    package init(path: String, contents: Data) {
        self.path = path
        self.contents = contents
    }
}

/// Renders every file of the site from the theme's Mustache templates: the paged grid, one page
/// per photo, album and tag pages with their indexes, `404.html`, the Atom feed, the sitemap,
/// `robots.txt`, the search index and `_headers`.
package struct SiteRenderer: Sendable {
    package let title: String
    package let description: String
    package let baseURL: URL?
    package let pageSize: Int
    package let showLocation: Bool
    package let exifFields: [ExifField]
    /// The order of the home grid, prev/next, and albums without their own `sort`.
    package let sort: PhotoSort
    /// What visitors may download where no album says otherwise (`download`).
    package let download: DownloadSetting
    /// Seconds per photo in the slideshow (`viewer.slideshowSeconds`).
    package let slideshowSeconds: Double
    /// The whole site has a password: no sitemap, and `robots.txt` turns every crawler away.
    package let sealed: Bool
    /// The theme's words in the site's `language`.
    package let strings: ThemeStrings
    /// The map page's tiles; the page exists only with `showLocation`.
    package let mapSettings: MapSettings
    package let library: MustacheLibrary
    /// `site` on every page, made once.
    let siteContext: SiteContext
    package let assets: Assets
    /// The static files' URLs from pages at each depth (`""`, `"../"`, …), made once.
    let assetURLs: [String: [String: String]]
    /// Covers everything besides a page's model that decides its bytes: the templates and the
    /// version of the code that renders them. Part of every page's input key.
    package let templatesKey: Digest

    /// Bump when rendering changes in a way the templates and models do not show (escaping, say),
    /// so cached pages are rendered again.
    static let renderVersion = 1
    /// Covers everything besides the photos that any page depends on: the templates, every config
    /// value read above, the static files' published names, and this executable (by size, time
    /// and inode), so a new galleryssg never trusts an old build's pages wholesale.
    package let settingsKey: Digest

    package init(config: SiteConfig, theme: Theme, assets: Assets) throws {
        title = config.title
        description = config.description
        baseURL = config.baseURL
        pageSize = config.pageSize
        showLocation = config.images.showLocation
        exifFields = config.images.exifFields
        sort = config.sort
        download = config.download
        slideshowSeconds = config.viewer.slideshowSeconds
        sealed = config.password != nil
        strings = try ThemeStrings(theme: theme, language: config.language)
        mapSettings = config.map
        siteContext = SiteContext(
            title: config.title, description: config.description.isEmpty ? nil : config.description,
            slideshowSeconds: Formatting.fixed(config.viewer.slideshowSeconds, digits: 2),
            lang: strings.language, t: strings.templateStrings,
            searchStrings: Self.searchStrings(strings))
        library = try theme.library()
        self.assets = assets
        // The deepest pages are those of the deepest albums: `albums/` + levels + `page/N/index.html`.
        assetURLs = Dictionary(
            uniqueKeysWithValues: (0...(AlbumPath.maxDepth + 3)).map { depth in
                let root = SiteLayout.root(depth: depth)
                return (root, assets.urls(root: root))
            })
        var key = CacheKey("templates")
        key.add(Self.renderVersion)
        for (name, text) in theme.templates.sorted(by: { $0.key < $1.key }) {
            key.add(name)
            key.add(text)
        }
        key.add(strings.language)
        for (name, text) in strings.table.sorted(by: { $0.key < $1.key }) {
            key.add(name)
            key.add(text)
        }
        templatesKey = key.finish()
        var settings = CacheKey("site settings")
        settings.add(templatesKey)
        settings.add(title)
        settings.add(description)
        settings.add(baseURL?.absoluteString ?? "")
        settings.add(pageSize)
        settings.add(showLocation ? 1 : 0)
        settings.add(exifFields.map(\.rawValue).joined(separator: " "))
        settings.add(sort.description)
        settings.add(download.rawValue)
        settings.add(sealed ? 1 : 0)
        settings.add(Formatting.fixed(slideshowSeconds, digits: 3))
        settings.add(mapSettings.tileURL)
        settings.add(mapSettings.attribution ?? "")
        for (path, target) in assets.published.sorted(by: { $0.key < $1.key }) {
            settings.add(path)
            settings.add(target)
        }
        let executable = FileStamp.executable
        settings.add("\(executable?.size ?? 0) \(executable?.modified ?? 0) \(executable?.identity.inode ?? 0)")
        settingsKey = settings.finish()
    }

    /// Target row height of the justified grid, in `em` of the grid's font size, which the
    /// stylesheet sets per screen width (16 px on wide screens: 220 px rows).
    package static let rowHeightEm = 13.75

    /// The grid's font size on phones (`style.css`, `max-width: 600px`), in `vw`: rows start at
    /// 13.75 × 2.15 = 29.6vw (115 px on a 390 px screen), so two 3:2 photos share a row on 360–430 px
    /// screens and a 2:1 panorama has a row to itself.
    static let phoneGridFontVW = 2.15

    /// How much wider than its flex-basis a tile is drawn on average on screens wider than a phone,
    /// where its row depends on the window's width: `justify.js` aims rows at 270 px (1.23 × the
    /// 220 px basis) and justifies them to 209–344 px on the mixed-shape site at 1280 px; without
    /// JavaScript the flex rows stretch 1.0–1.3 × (the sample at 360–1366 px). Phones get each
    /// tile's own width (`gridSizes(aspects:)`).
    package static let rowStretch = 1.25

    /// Tiles loaded at once on each grid page; the rest wait until they are near the viewport.
    static let eagerTiles = 8

    /// Photos in the Atom feed.
    static let feedEntries = 20

    /// The site's albums and tags, worked out once per render.
    package struct Sections: Sendable {
        package var albums: AlbumTree
        package var tags: [PhotoCollection]
        /// Tag name → slug.
        var tagSlugs: [String: String]
        /// Tag name → number of photos.
        var tagCounts: [String: Int]

        package init(
            _ items: [ItemFacts], sources: [Int], albumInfos: [String: AlbumInfo], sort: PhotoSort,
            albumTokens: [String: String] = [:], albumFolders: [String: String] = [:], download: DownloadSetting = .off
        ) {
            let albums = AlbumTree(
                items, sources: sources, infos: albumInfos, sort: sort, tokens: albumTokens,
                folders: albumFolders, download: download)
            self.albums = albums
            tags = PhotoCollection.tags(of: items) { !albums.isUnlisted(item: $0) }
            tagSlugs = Dictionary(tags.map { ($0.name, $0.slug) }, uniquingKeysWith: { first, _ in first })
            tagCounts = Dictionary(tags.map { ($0.name, $0.members.count) }, uniquingKeysWith: { first, _ in first })
        }
    }

    /// Lists every page of the site; nothing is rendered yet.
    /// - Parameters:
    ///   - items: The published photos in source order; the plan holds them in the site's `sort`.
    ///   - albums: Album settings by album path (`Manifest.albums`).
    ///   - albumTokens: The token of each album marked `unlisted`, by cleaned path (`UnlistedAlbums`).
    ///   - albumFolders: The folder of each album inside a protected one, by cleaned path (`ProtectedAlbums`).
    ///   - placeholders: Finds each item's placeholder image by its key.
    package func plan(
        _ published: consuming ItemList, albums: [String: AlbumInfo] = [:], albumTokens: [String: String] = [:],
        albumFolders: [String: String] = [:], placeholders: PlaceholderLookup = .fixed("")
    ) -> SitePlan {
        let sources = PhotoOrder.sorted(Array(published.indices), by: sort) { published.facts[$0].sortPhoto }
        // Put in the site's order in place: a sorted copy of 1,000,000 facts would be 100 MB more at the peak.
        var items = published
        published = ItemList.empty
        items.permute(by: sources)
        let sections = Sections(
            items.facts, sources: sources, albumInfos: albums, sort: sort, albumTokens: albumTokens,
            albumFolders: albumFolders, download: download)
        let tree = sections.albums
        let home = items.indices.filter { tree.albumOfItem[$0].map { tree.albums[$0].inHome } ?? true }
        let paginator = Paginator(itemCount: home.count, pageSize: pageSize)
        var pages: [SitePage] = (1...paginator.pageCount).map { .home(page: $0) }
        pages += items.indices.map { .photo(index: $0) }
        for (index, album) in tree.albums.enumerated() {
            pages += (1...Paginator(itemCount: album.members.count, pageSize: pageSize).pageCount)
                .map { .album(index: index, page: $0) }
        }
        for (index, tag) in sections.tags.enumerated() {
            pages += (1...collectionPages(tag)).map { .tag(index: index, page: $0) }
        }
        if tree.hasListed { pages.append(.albums) }
        if !sections.tags.isEmpty { pages.append(.tags) }
        if showLocation { pages.append(.map) }
        pages += [.notFound, .feed]
        if baseURL != nil && !sealed { pages.append(.sitemap) }
        return SitePlan(
            items: items, sections: sections, paginator: paginator, pages: pages, home: home,
            homePosition: Dictionary(uniqueKeysWithValues: home.enumerated().map { ($1, $0) }),
            albumsKey: AlbumTree.infoKey(albums, tokens: albumTokens), placeholders: placeholders)
    }

    /// The plan of items held in memory (previews and tests): they are spilled to a temporary file first.
    package func plan(
        _ published: [GalleryItem], albums: [String: AlbumInfo] = [:], albumTokens: [String: String] = [:],
        placeholders: PlaceholderLookup = .fixed("")
    ) throws -> SitePlan {
        plan(try ItemList(published), albums: albums, albumTokens: albumTokens, placeholders: placeholders)
    }

    func collectionPages(_ collection: PhotoCollection) -> Int {
        Paginator(itemCount: collection.members.count, pageSize: pageSize).pageCount
    }

    /// Where a page is published, relative to the site root.
    package func path(of page: SitePage, in plan: SitePlan) -> String {
        switch page {
        case .home(let number): Paginator.path(ofPage: number)
        case .photo(let index): plan.items.facts[index].pagePath
        case .album(let index, let number): plan.sections.albums.albums[index].path(page: number)
        case .tag(let index, let number): plan.sections.tags[index].path(in: "tags", page: number)
        case .albums: SiteLayout.albums
        case .tags: SiteLayout.tags
        case .notFound: SiteLayout.notFound
        case .map: SiteLayout.map
        case .feed: SiteLayout.feed
        case .sitemap: SiteLayout.sitemap
        }
    }

    /// A page's template and every value it shows.
    package func model(of page: SitePage, in plan: SitePlan) throws -> PageModel {
        switch page {
        case .home(let number): try homeModel(page: number, plan)
        case .photo(let index): try photoModel(at: index, plan)
        case .album(let index, let number): try albumModel(index, page: number, plan)
        case .tag(let index, let number):
            try collectionModel(
                plan.sections.tags[index], folder: "tags",
                heading: strings.text("taggedHeading", ["name": plan.sections.tags[index].name]),
                parentLabel: strings.text("allTags"), page: number, plan)
        case .albums: try albumsIndexModel(plan)
        case .tags: tagsIndexModel(plan)
        case .notFound: notFoundModel(plan)
        case .map: try mapModel(plan)
        case .feed:
            PageModel(
                path: SiteLayout.feed, template: "atom",
                context: try feed(plan.items, including: { !plan.sections.albums.isUnlisted(item: $0) }))
        case .sitemap: try sitemapModel(plan)
        }
    }

    /// Renders a page's model with its template.
    package func render(_ model: PageModel) throws -> Data {
        guard let text = library.render(model.context, withTemplate: model.template) else {
            throw RenderError(.missingTemplate, "\(model.path): template \(model.template).mustache is missing")
        }
        return Data(text.utf8)
    }

    package var site: SiteContext { siteContext }

    /// The search script's messages, as the JSON its form's `data-strings` carries.
    static func searchStrings(_ strings: ThemeStrings) -> String {
        let messages = [
            "none": "searchNone", "one": "searchOne", "many": "searchMany", "failed": "searchFailed",
            "shorter": "searchShorter"
        ].mapValues { strings.text($0) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return (try? encoder.encode(messages)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A `srcset` value listing each derivative's file (JPEG, WebP or AVIF) with its width.
    package static func srcset(_ derivatives: [Derivative], root: String, path: KeyPath<Derivative, String>) -> String {
        derivatives.map { "\(root)\($0[keyPath: path]) \($0.size.width)w" }.joined(separator: ", ")
    }

    /// The URL of a root-relative path's folder under `baseURL` (`…/page/2/` for `page/2/index.html`).
    package func absoluteURL(_ path: String) -> String? {
        let directory =
            path.hasSuffix(SiteLayout.folderIndex) ? String(path.dropLast(SiteLayout.folderIndex.count)) : path
        return baseURL.map { $0.absoluteString + directory }
    }

    /// The layout's values for the page at a root-relative path.
    func pageContext(
        path: String, title: String, description: String?, sections: Sections,
        root explicitRoot: String? = nil
    ) -> PageContext {
        let root = explicitRoot ?? SiteLayout.root(of: path)
        return PageContext(
            title: title, description: description, root: root, canonical: absoluteURL(path),
            assets: assetURLs[root] ?? assets.urls(root: root), homeHref: root + SiteLayout.home,
            albumsHref: sections.albums.hasListed ? root + SiteLayout.albums : nil,
            tagsHref: sections.tags.isEmpty ? nil : root + SiteLayout.tags, feedHref: root + SiteLayout.feed,
            mapHref: showLocation ? root + SiteLayout.map : nil,
            social: SocialCard(type: "website", twitterCard: "summary"))
    }

    /// Adds a photo as the page's link-preview image, when absolute URLs can be made.
    func withSocialImage(_ page: PageContext, _ item: GalleryItem?, derivative: Derivative? = nil)
        -> PageContext
    {
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
}
