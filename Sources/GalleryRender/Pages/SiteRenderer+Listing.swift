import Foundation
import GalleryModel

/// Grid pages: the home grid, album and tag pages, and the albums and tags indexes.
extension SiteRenderer {
    /// The view-transition name shared by a photo's grid tile and its page's preview: a hash of the
    /// photo's id (64-bit FNV-1a), so it names the photo alone. It was the photo's place in the whole
    /// site's list, hidden photos included, so the gap between two public photos' numbers counted the
    /// protected and unlisted photos taken between them.
    static func transitionName(_ photoID: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in photoID.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return "p" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// A justified-grid tile for `item`, the plan's item `index` (read once by the caller: each read
    /// is a trip to the item file), seen from a page whose root prefix is `root`; `sizes` comes from
    /// `gridSizes(aspects:)` over the page's tiles; `phone`, its place in the page's phone rows
    /// (`GridLayout.phone()`), for the stylesheet's phone grid without JavaScript.
    package func tile(
        _ index: Int, _ item: GalleryItem, _ plan: SitePlan, root: String, eager: Bool, sizes: String,
        phone: TilePlace? = nil
    ) -> GridTile {
        let aspect = Self.aspect(item)
        return GridTile(
            href: root + item.pagePath,
            src: root + item.plan.thumbnail.path,
            srcset: Self.srcset(item.plan.thumbnailSources, root: root, path: \.path),
            webpSrcset: item.plan.webp ? Self.srcset(item.plan.thumbnailSources, root: root, path: \.webpPath) : nil,
            avifSrcset: item.plan.avif ? Self.srcset(item.plan.thumbnailSources, root: root, path: \.avifPath) : nil,
            sizes: sizes,
            width: item.plan.thumbnail.size.width, height: item.plan.thumbnail.size.height,
            alt: item.altText, title: item.photo.title, loading: eager ? "eager" : "lazy",
            // The tile's own aspect ratio (--ar, the stylesheet's aspect-ratio; vnu does not know the
            // property in a style attribute) sets its height, not the file that happens to be loaded:
            // srcset files of a few dozen pixels round their shape differently (64×43 against
            // 120×80), and a row would move when the browser swapped one for the other.
            style:
                "flex-grow:\(Formatting.fixed(aspect * 100, digits: 0));flex-basis:\(Formatting.fixed(aspect * Self.rowHeightEm, digits: 2))em;"
                + "--ar:\(Formatting.fixed(aspect, digits: 4));"
                + (phone.map {
                    "--pf:\(Formatting.fixed($0.share, digits: 5));--pg:\(Formatting.fixed($0.gaps, digits: 0))px;--pa:\(Formatting.fixed($0.shape, digits: 4));"
                } ?? "")
                + item.placeholderStyle(plan.placeholders),
            transitionName: Self.transitionName(item.photo.id),
            duration: item.video?.durationText)
    }

    /// The tiles of one grid page, items in page order, their `sizes` worked out together (tiles
    /// share rows); the first `eagerTiles` of the page load at once, counting `before` tiles
    /// (album cards) above them.
    package func tiles(_ indices: [Int], _ plan: SitePlan, root: String, before: Int = 0) throws -> [GridTile] {
        let items = try indices.map { try plan.items[$0] }
        let aspects = items.map(Self.aspect)
        let sizes = Self.gridSizes(aspects: aspects)
        let phone = GridLayout.phone(gap: Self.gridGap).tiles(aspects)
        return indices.enumerated().map { offset, index in
            tile(
                index, items[offset], plan, root: root, eager: before + offset < Self.eagerTiles, sizes: sizes[offset],
                phone: phone[offset])
        }
    }

    /// Numbered page links, or nil for a single page; also sets the page's `rel` prev/next.
    package func pagination(
        _ number: Int, of paginator: Paginator, page: inout PageContext,
        href: (Int) -> String
    ) -> Pagination? {
        guard paginator.pageCount > 1 else { return nil }
        let result = Pagination(
            current: number, total: paginator.pageCount,
            prevHref: number > 1 ? href(number - 1) : nil,
            nextHref: number < paginator.pageCount ? href(number + 1) : nil,
            pages: Self.pageWindow(number, of: paginator.pageCount).map { shown in
                shown.map { PageNumber(number: $0, href: href($0), isCurrent: $0 == number) }
                    ?? PageNumber(number: 0, href: "", isCurrent: false, isGap: true)
            })
        page.prevHref = result.prevHref
        page.nextHref = result.nextHref
        return result
    }

    /// The page numbers a grid page lists: the first and last pages and two either side of the
    /// current one, with nil for each run of pages left out (shown as `…`). A gap never hides a
    /// single page, since the page's own number is as short as the ellipsis. Listing every page
    /// would make each of 4,000 grid pages (100,000 photos) 250 KB of links.
    package static func pageWindow(_ current: Int, of count: Int) -> [Int?] {
        let around = 2
        let wanted = Set([1, count]).union(max(1, current - around)...min(count, current + around)).sorted()
        var shown: [Int?] = []
        var last = 0
        for number in wanted {
            if number == last + 2 { shown.append(last + 1) } else if number > last + 2 { shown.append(nil) }
            shown.append(number)
            last = number
        }
        return shown
    }

    func homeModel(page number: Int, _ plan: SitePlan) throws -> PageModel {
        let items = plan.items
        let paginator = plan.paginator
        let path = Paginator.path(ofPage: number)
        let pageTitle = number == 1 ? title : pageOf(title, number, paginator.pageCount)
        var page = pageContext(
            path: path, title: pageTitle, description: description.isEmpty ? nil : description,
            sections: plan.sections)
        page.isHome = true
        let range = paginator.range(ofPage: number)
        let shown = range.map { plan.home[$0] }
        page = withSocialImage(page, try shown.first.map { try items[$0] })
        let root = page.root
        let tiles = try tiles(shown, plan, root: root)
        let pages = pagination(number, of: paginator, page: &page) { root + Paginator.path(ofPage: $0) }
        let context = GridContext(
            site: site, page: page, heading: title, intro: site.description, photos: tiles,
            photoCount: plan.home.count, pagination: pages, slideshowHref: tiles.first?.href)
        return PageModel(path: path, template: "grid", context: context)
    }

    func tagsIndexModel(_ plan: SitePlan) -> PageModel {
        let sections = plan.sections
        var page = pageContext(
            path: SiteLayout.tags, title: "\(strings.text("tagsHeading")) · \(title)", description: nil,
            sections: sections)
        page.isTags = true
        let root = page.root
        let tags = sections.tags.map {
            TagLink(name: $0.name, href: root + $0.path(in: "tags", page: 1), count: $0.members.count)
        }
        return PageModel(
            path: SiteLayout.tags, template: "tags",
            context: TagsContext(site: site, page: page, heading: strings.text("tagsHeading"), tags: tags))
    }

    /// `5 photos` in the site's language.
    func countLabel(_ count: Int) -> String { strings.count("photoCount", count) }

    /// `Title, page 2 of 5` in the site's language.
    func pageOf(_ title: String, _ number: Int, _ total: Int) -> String {
        strings.text("pageOf", ["title": title, "n": String(number), "total": String(total)])
    }

    /// One page of the paged grid of an album or tag.
    func collectionModel(
        _ collection: PhotoCollection, folder: String, heading: String, parentLabel: String,
        page number: Int, _ plan: SitePlan
    ) throws -> PageModel {
        let paginator = Paginator(itemCount: collection.members.count, pageSize: pageSize)
        let path = collection.path(in: folder, page: number)
        let pageTitle = number == 1 ? heading : pageOf(heading, number, paginator.pageCount)
        var page = pageContext(path: path, title: "\(pageTitle) · \(title)", description: nil, sections: plan.sections)
        page.isAlbums = folder == "albums"
        page.isTags = folder == "tags"
        let members = Array(collection.members[paginator.range(ofPage: number)])
        page = withSocialImage(page, try members.first.map { try plan.items[$0] })
        let root = page.root
        let tiles = try tiles(members, plan, root: root)
        let pages = pagination(number, of: paginator, page: &page) { root + collection.path(in: folder, page: $0) }
        let context = GridContext(
            site: site, page: page, heading: heading, intro: countLabel(collection.members.count),
            parentHref: root + SiteLayout.listing(folder, page: 1), parentLabel: parentLabel, photos: tiles,
            photoCount: collection.members.count, pagination: pages, slideshowHref: tiles.first?.href)
        return PageModel(path: path, template: "grid", context: context)
    }
}

extension SiteRenderer {
    /// The page of a folder that has no index page of its own (`FolderIndexes`): it sends the
    /// visitor to the site's home at once, names nothing of the site, and keeps out of search engines.
    package var folderIndexPage: @Sendable (_ root: String) -> [UInt8] {
        let language = FastHTMLEscaping.escape(strings.language)
        let title = FastHTMLEscaping.escape(strings.text("notFoundTitle"))
        let home = FastHTMLEscaping.escape(strings.text("notFoundHome"))
        return { root in
            let href = FastHTMLEscaping.escape(root + SiteLayout.folderIndex)
            return Array(
                ("<!DOCTYPE html>\n<html lang=\"\(language)\"><head><meta charset=\"utf-8\">"
                    + "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
                    + "<meta name=\"robots\" content=\"noindex\"><meta http-equiv=\"refresh\" content=\"0; url=\(href)\">"
                    + "<title>\(title)</title></head>\n<body><main><p><a href=\"\(href)\">\(home)</a></p></main></body></html>\n")
                    .utf8)
        }
    }
}
