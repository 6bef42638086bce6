import Foundation
import Mustache

/// One rendered file of the site.
public struct RenderedPage: Sendable {
    /// Path relative to the site root.
    public var path: String
    public var html: String
}

/// Renders the paged grid and one page per photo from the theme's Mustache templates.
public struct SiteRenderer: Sendable {
    let title: String
    let description: String
    let baseURL: URL?
    let pageSize: Int
    let showLocation: Bool
    let exifFields: [String]
    let library: MustacheLibrary
    /// Covers every input a page has besides its photos: the site settings the pages show, every
    /// template, and `formatVersion`. Part of each page's cache key.
    public let inputsKey: String

    /// The version of the page-rendering code (this type, the page models, `Formatting`, `Markdown`).
    /// Part of every page's cache key: bump it whenever that code changes its output.
    public static let formatVersion = 1

    public init(config: SiteConfig, theme: Theme) throws {
        title = config.title
        description = config.description
        baseURL = config.baseURL
        pageSize = config.pageSize
        showLocation = config.images.showLocation
        exifFields = config.images.exifFields
        library = try theme.library()
        var key = CacheKey("site pages")
        key.add(Self.formatVersion)
        key.add(title)
        key.add(description)
        key.add(baseURL?.absoluteString ?? "")
        key.add(pageSize)
        key.add(showLocation ? 1 : 0)
        key.add(exifFields.joined(separator: ","))
        for (name, text) in theme.templates.sorted(by: { $0.key < $1.key }) {
            key.add(name)
            key.add(text)
        }
        inputsKey = key.finish()
    }

    /// Every page of the site, grid pages first, then photo pages, in photo order.
    public func render(_ items: [GalleryItem]) throws -> [RenderedPage] {
        let paginator = Paginator(itemCount: items.count, pageSize: pageSize)
        var pages: [RenderedPage] = []
        for number in 1...paginator.pageCount {
            pages.append(try renderGrid(page: number, items: items, paginator: paginator))
        }
        for index in items.indices {
            pages.append(try renderPhoto(at: index, items: items, paginator: paginator))
        }
        return pages
    }

    /// Target row height of the justified grid, in `em` of the grid's font size, which the
    /// stylesheet sets per screen width (16 px on wide screens: 220 px rows).
    static let rowHeightEm = 13.75

    /// Tiles loaded at once on each grid page; the rest wait until they are near the viewport.
    static let eagerTiles = 8

    private var site: SiteContext {
        SiteContext(title: title, description: description.isEmpty ? nil : description)
    }

    /// A `srcset` value listing each derivative's file (JPEG or WebP) with its width.
    private static func srcset(_ derivatives: [Derivative], root: String, path: KeyPath<Derivative, String>) -> String {
        derivatives.map { "\(root)\($0[keyPath: path]) \($0.size.width)w" }.joined(separator: ", ")
    }

    private func pageContext(path: String, title: String, description: String?) -> PageContext {
        let depth = path.split(separator: "/").count - 1
        let directory = path.hasSuffix("index.html") ? String(path.dropLast("index.html".count)) : path
        return PageContext(title: title, description: description, root: String(repeating: "../", count: depth),
                           canonical: baseURL.map { $0.absoluteString + directory })
    }

    func renderGrid(page number: Int, items: [GalleryItem], paginator: Paginator) throws -> RenderedPage {
        let path = Paginator.path(ofPage: number)
        let pageTitle = number == 1 ? title : "\(title), page \(number) of \(paginator.pageCount)"
        var page = pageContext(path: path, title: pageTitle, description: description.isEmpty ? nil : description)
        let root = page.root
        let tiles = items[paginator.range(ofPage: number)].enumerated().map { offset, item -> GridTile in
            let aspect = Double(item.displaySize.width) / Double(item.displaySize.height)
            return GridTile(
                href: root + item.pagePath,
                src: root + item.plan.thumbnail.path,
                srcset: Self.srcset(item.plan.thumbnailSources, root: root, path: \.path),
                webpSrcset: item.plan.webp ? Self.srcset(item.plan.thumbnailSources, root: root, path: \.webpPath) : nil,
                sizes: "(max-width: 600px) 50vw, \(item.plan.thumbnail.size.width)px",
                width: item.plan.thumbnail.size.width, height: item.plan.thumbnail.size.height,
                alt: item.altText, title: item.photo.title, loading: offset < Self.eagerTiles ? "eager" : "lazy",
                style: String(format: "flex-grow:%.0f;flex-basis:%.2fem;", aspect * 100, aspect * Self.rowHeightEm)
                    + item.placeholderStyle)
        }
        var pagination: Pagination?
        if paginator.pageCount > 1 {
            let href = { (target: Int) in root + Paginator.path(ofPage: target) }
            pagination = Pagination(
                current: number, total: paginator.pageCount,
                prevHref: number > 1 ? href(number - 1) : nil,
                nextHref: number < paginator.pageCount ? href(number + 1) : nil,
                pages: (1...paginator.pageCount).map { PageNumber(number: $0, href: href($0), isCurrent: $0 == number) })
            page.prevHref = pagination?.prevHref
            page.nextHref = pagination?.nextHref
        }
        let context = GridContext(site: site, page: page, heading: title, photos: tiles, photoCount: items.count,
                                  pagination: pagination)
        return RenderedPage(path: path, html: try render(context, "grid", path))
    }

    func renderPhoto(at index: Int, items: [GalleryItem], paginator: Paginator) throws -> RenderedPage {
        let item = items[index]
        let photo = item.photo
        let path = item.pagePath
        let displayTitle = photo.title ?? item.altText
        let summary = photo.description.map { Markdown.plainText($0, limit: 200) }
        var page = pageContext(path: path, title: "\(displayTitle) · \(title)", description: summary)
        let root = page.root
        let neighbor = { (other: GalleryItem) in NeighborLink(href: root + other.pagePath, title: other.photo.title ?? other.altText) }
        let prev = index > 0 ? neighbor(items[index - 1]) : nil
        let next = index + 1 < items.count ? neighbor(items[index + 1]) : nil
        page.prevHref = prev?.href
        page.nextHref = next?.href

        let fullSize: (href: String, label: String)
        switch item.original {
        case .published(let originalPath):
            fullSize = (root + originalPath, "Full size (\(item.displaySize.width) × \(item.displaySize.height))")
        case .remote(let url):
            fullSize = (url.absoluteString, "Full size (\(item.displaySize.width) × \(item.displaySize.height))")
        case .none:
            fullSize = (root + item.plan.all[0].path, "Largest size (\(item.plan.all[0].size.width) × \(item.plan.all[0].size.height))")
        }
        let camera = photo.camera
        let available: [String: (String, String?)] = [
            "camera": ("Camera", Formatting.camera(camera)), "lens": ("Lens", camera.lens),
            "focalLength": ("Focal length", Formatting.focalLength(camera.focalLength)),
            "aperture": ("Aperture", Formatting.aperture(camera.aperture)),
            "exposure": ("Exposure", Formatting.exposure(camera.exposureTime)), "iso": ("ISO", Formatting.iso(camera.iso)),
        ]
        let exifRows = exifFields.compactMap { field in
            available[field].flatMap { label, value in value.map { MetadataRow(label: label, value: $0) } }
        }
        let date = Formatting.date(photo.takenAt)
        let preview = item.plan.preview
        let context = PhotoPageContext(
            site: site, page: page,
            photo: PhotoContext(
                id: photo.id, title: displayTitle, alt: item.altText,
                descriptionHTML: photo.description.map(Markdown.html),
                src: root + preview.path,
                srcset: Self.srcset(item.plan.previewSources, root: root, path: \.path),
                webpSrcset: item.plan.webp ? Self.srcset(item.plan.previewSources, root: root, path: \.webpPath) : nil,
                sizes: "(max-width: \(preview.size.width)px) 100vw, \(preview.size.width)px",
                width: preview.size.width, height: preview.size.height,
                style: item.placeholderStyle,
                fullSizeHref: fullSize.href, fullSizeLabel: fullSize.label,
                sourceHref: photo.sourcePage?.absoluteString,
                sourceLabel: photo.sourcePage?.host.map { "View on \($0.hasPrefix("www.") ? String($0.dropFirst(4)) : $0)" },
                location: showLocation ? photo.location.map(Formatting.coordinates) : nil,
                locationHref: showLocation ? photo.location.map(Formatting.mapLink) : nil,
                takenAtDisplay: date?.display, takenAtMachine: date?.machine,
                author: photo.author, authorHref: photo.authorURL?.absoluteString,
                licenseName: photo.license?.name, licenseHref: photo.license?.url?.absoluteString,
                album: photo.album, tags: photo.tags, hasTags: !photo.tags.isEmpty, exif: exifRows),
            prev: prev, next: next,
            backHref: root + Paginator.path(ofPage: paginator.page(ofItem: index)),
            backPage: paginator.page(ofItem: index), position: index + 1, total: items.count)
        return RenderedPage(path: path, html: try render(context, "photo", path))
    }

    private func render(_ context: Any, _ template: String, _ path: String) throws -> String {
        guard let html = library.render(context, withTemplate: template) else {
            throw RenderError(description: "\(path): template \(template).mustache is missing")
        }
        return html
    }
}
