import Foundation
import GalleryModel
import Mustache

/// The files around the pages: `404.html`, the Atom feed, `sitemap.xml`, `robots.txt` and the search index.
extension SiteRenderer {
    /// `404.html` is served at any missing path, so its links are absolute under `baseURL` when it
    /// is set; without it they are relative to the site root.
    func notFoundModel(_ plan: SitePlan) -> PageModel {
        var page = pageContext(
            path: "404.html", title: "\(strings.text("notFoundTitle")) · \(title)", description: nil,
            sections: plan.sections,
            root: baseURL?.absoluteString ?? "")
        page.canonical = nil
        page.inlineStylesheet = assets.published["static/style.css"].flatMap { assets.files[$0] }
            .map { "data:text/css;base64," + $0.base64EncodedString() }
        return PageModel(path: "404.html", template: "404", context: NotFoundContext(site: site, page: page))
    }

    /// Every listed HTML page of the site but `404.html`, as absolute URLs.
    func sitemapModel(_ plan: SitePlan) throws -> PageModel {
        let tree = plan.sections.albums
        let urls = try plan.pages.filter { page in
            switch page {
            case .notFound: false
            case .photo(let index): !tree.isUnlisted(item: index)
            case .album(let index, _): tree.albums[index].listed
            default: true
            }
        }.compactMap { page -> SitemapURL? in
            let path = path(of: page, in: plan)
            guard SitePage.isHTML(path: path), let loc = absoluteURL(path) else { return nil }
            var url = SitemapURL(loc: loc)
            if case .photo(let index) = page {
                let item = try plan.items[index]
                if let video = item.video, let clip = item.videoPath {
                    url.video = SitemapVideo(
                        thumbnail: absoluteURL(item.plan.preview.path) ?? "", title: item.photo.title ?? item.altText,
                        description: item.photo.description.map { Markdown.plainText($0, limit: 2048) } ?? item.altText,
                        contentLoc: absoluteURL(clip) ?? "", duration: max(1, Int(video.duration.rounded())))
                }
            }
            return url
        }
        return PageModel(path: SiteLayout.sitemap, template: "sitemap", context: SitemapContext(urls: urls))
    }

    /// The files that are not rendered from a template: `robots.txt` and the search index.
    package func plainFiles(_ plan: SitePlan, _ emit: (RenderedPage) throws -> Void) throws {
        var robots = "User-agent: *\nDisallow:\(sealed ? " /" : "")\n"
        if baseURL != nil && !sealed {
            robots += "\nSitemap: \(absoluteURL(SiteLayout.sitemap) ?? "")\n"
        }
        let tree = plan.sections.albums
        let listed = tree.albums.allSatisfy(\.listed) ? nil : plan.items.indices.filter { !tree.isUnlisted(item: $0) }
        let index = SearchIndex(items: plan.items, albums: SearchIndex.albumTitles(tree), only: listed)
        try emit(RenderedPage(path: "robots.txt", text: robots))
        try index.files(emit)
        if let map = try mapData(plan) { try emit(map) }
    }

    /// The latest photos by date taken (undated ones after, in gallery order), among those `including` lets in.
    package func feed(_ items: ItemList, including: (Int) -> Bool = { _ in true }) throws -> FeedContext {
        let parser = ISO8601DateFormatter()
        let dated = items.indices.filter(including).map { index -> (index: Int, date: String?, instant: Date?) in
            let date = Formatting.rfc3339(items.facts[index].takenAt)
            return (index, date, date.flatMap(parser.date(from:)))
        }
        let latest = dated.sorted { lhs, rhs in
            switch (lhs.instant, rhs.instant) {
            case let (left?, right?): return left != right ? left > right : lhs.index < rhs.index
            case (.some, nil): return true
            case (nil, .some): return false
            case (nil, nil): return lhs.index < rhs.index
            }
        }.prefix(Self.feedEntries)
        let siteID = baseURL?.absoluteString ?? "urn:galleryssg:site:\(PhotoCollection.slug(title))"
        let entries = try latest.map { entry -> FeedEntry in
            let item = try items[entry.index]
            let photo = item.photo
            let image = item.plan.previewSources.last { $0.size.width <= 1200 } ?? item.plan.preview
            let href = feedLink(item.pagePath)
            let src = feedLink(image.path)
            var content = Self.feedImage.render(
                [
                    "href": href, "src": src, "width": image.size.width,
                    "height": image.size.height, "alt": item.altText
                ] as [String: Any])
            if let description = photo.description { content += "\n" + Markdown.html(description) }
            return FeedEntry(
                id: absoluteURL(item.pagePath) ?? "urn:galleryssg:photo:\(photo.id)",
                title: photo.title ?? item.altText, href: href,
                updated: entry.date ?? Self.undatedTimestamp, author: photo.author,
                authorURI: photo.authorURL?.absoluteString, contentHTML: content, tags: photo.tags,
                rights: photo.license?.name, imageHref: src, imageType: ImageFormat.jpeg.mimeType,
                videoHref: item.videoPath.map(feedLink))
        }
        let updated = latest.first?.date ?? Self.undatedTimestamp
        return FeedContext(
            title: title, subtitle: description.isEmpty ? nil : description, selfHref: feedLink("feed.xml"),
            homeHref: baseURL?.absoluteString ?? SiteLayout.home, id: siteID, updated: updated, entries: Array(entries))
    }

    /// A root-relative path as the feed links it: absolute under `baseURL` (a page by its folder,
    /// `…/photos/kite/`), else unchanged.
    func feedLink(_ path: String) -> String {
        guard let base = baseURL?.absoluteString else { return path }
        return path.hasSuffix(SiteLayout.folderIndex) ? absoluteURL(path) ?? path : base + path
    }

    /// Atom needs a date on every entry; a photo without one gets this, which keeps rebuilds identical.
    static let undatedTimestamp = "1970-01-01T00:00:00Z"

    /// The image at the top of each feed entry's content; Mustache escapes the values.
    static let feedImage: MustacheTemplate = {
        do {
            return try MustacheTemplate(
                string:
                    #"<p><a href="{{href}}"><img src="{{src}}" width="{{width}}" height="{{height}}" alt="{{alt}}"></a></p>"#
            )
        } catch {
            preconditionFailure("feed image template: \(error)")
        }
    }()
}
