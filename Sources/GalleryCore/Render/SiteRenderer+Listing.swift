import Foundation

/// Grid pages: the home grid, album and tag pages, and the albums and tags indexes.
extension SiteRenderer {
    /// The view-transition name shared by a photo's grid tile and its page's preview.
    static func transitionName(_ index: Int) -> String { "photo-\(index)" }

    /// A justified-grid tile for item `index`, seen from a page whose root prefix is `root`.
    func tile(_ index: Int, _ items: [GalleryItem], root: String, eager: Bool) -> GridTile {
        let item = items[index]
        let aspect = Double(item.displaySize.width) / Double(item.displaySize.height)
        return GridTile(
            href: root + item.pagePath,
            src: root + item.plan.thumbnail.path,
            srcset: Self.srcset(item.plan.thumbnailSources, root: root, path: \.path),
            webpSrcset: item.plan.webp ? Self.srcset(item.plan.thumbnailSources, root: root, path: \.webpPath) : nil,
            sizes: "(max-width: 600px) 45vw, \(item.plan.thumbnail.size.width)px",
            width: item.plan.thumbnail.size.width, height: item.plan.thumbnail.size.height,
            alt: item.altText, title: item.photo.title, loading: eager ? "eager" : "lazy",
            style: String(format: "flex-grow:%.0f;flex-basis:%.2fem;", aspect * 100, aspect * Self.rowHeightEm)
                + item.placeholderStyle,
            transitionName: Self.transitionName(index))
    }

    /// Numbered page links, or nil for a single page; also sets the page's `rel` prev/next.
    func pagination(_ number: Int, of paginator: Paginator, page: inout PageContext,
                    href: (Int) -> String) -> Pagination? {
        guard paginator.pageCount > 1 else { return nil }
        let result = Pagination(
            current: number, total: paginator.pageCount,
            prevHref: number > 1 ? href(number - 1) : nil,
            nextHref: number < paginator.pageCount ? href(number + 1) : nil,
            pages: (1...paginator.pageCount).map { PageNumber(number: $0, href: href($0), isCurrent: $0 == number) })
        page.prevHref = result.prevHref
        page.nextHref = result.nextHref
        return result
    }

    func renderHome(page number: Int, items: [GalleryItem], paginator: Paginator, sections: Sections) throws -> RenderedPage {
        let path = Paginator.path(ofPage: number)
        let pageTitle = number == 1 ? title : "\(title), page \(number) of \(paginator.pageCount)"
        var page = pageContext(path: path, title: pageTitle, description: description.isEmpty ? nil : description,
                               sections: sections)
        page.isHome = true
        let range = paginator.range(ofPage: number)
        page = withSocialImage(page, range.isEmpty ? nil : items[range.lowerBound])
        let root = page.root
        let tiles = range.map { tile($0, items, root: root, eager: $0 - range.lowerBound < Self.eagerTiles) }
        let pages = pagination(number, of: paginator, page: &page) { root + Paginator.path(ofPage: $0) }
        let context = GridContext(site: site, page: page, heading: title, intro: site.description, photos: tiles,
                                  photoCount: items.count, pagination: pages)
        return try render(context, "grid", path)
    }

    func renderCollections(items: [GalleryItem], sections: Sections) throws -> [RenderedPage] {
        var pages: [RenderedPage] = []
        for album in sections.albums {
            pages += try renderCollection(album, folder: "albums", heading: album.name, parentLabel: "All albums",
                                          items: items, sections: sections)
        }
        for tag in sections.tags {
            pages += try renderCollection(tag, folder: "tags", heading: "Tagged “\(tag.name)”", parentLabel: "All tags",
                                          items: items, sections: sections)
        }
        if !sections.albums.isEmpty {
            var page = pageContext(path: "albums/index.html", title: "Albums · \(title)", description: nil, sections: sections)
            page.isAlbums = true
            page = withSocialImage(page, sections.albums.first.map { items[$0.members[0]] })
            let root = page.root
            let albums = sections.albums.enumerated().map { offset, album in
                CollectionTile(name: album.name, href: root + album.path(in: "albums", page: 1), count: album.members.count,
                               countLabel: Self.countLabel(album.members.count),
                               cover: tile(album.members[0], items, root: root, eager: offset < Self.eagerTiles))
            }
            pages.append(try render(AlbumsContext(site: site, page: page, heading: "Albums", albums: albums),
                                    "albums", "albums/index.html"))
        }
        if !sections.tags.isEmpty {
            var page = pageContext(path: "tags/index.html", title: "Tags · \(title)", description: nil, sections: sections)
            page.isTags = true
            let root = page.root
            let tags = sections.tags.map { TagLink(name: $0.name, href: root + $0.path(in: "tags", page: 1), count: $0.members.count) }
            pages.append(try render(TagsContext(site: site, page: page, heading: "Tags", tags: tags), "tags", "tags/index.html"))
        }
        return pages
    }

    static func countLabel(_ count: Int) -> String { count == 1 ? "1 photo" : "\(count) photos" }

    /// The paged grid of one album or tag.
    private func renderCollection(_ collection: PhotoCollection, folder: String, heading: String, parentLabel: String,
                                  items: [GalleryItem], sections: Sections) throws -> [RenderedPage] {
        let paginator = Paginator(itemCount: collection.members.count, pageSize: pageSize)
        return try (1...paginator.pageCount).map { number in
            let path = collection.path(in: folder, page: number)
            let suffix = number == 1 ? "" : ", page \(number) of \(paginator.pageCount)"
            var page = pageContext(path: path, title: "\(heading)\(suffix) · \(title)", description: nil, sections: sections)
            page.isAlbums = folder == "albums"
            page.isTags = folder == "tags"
            let members = Array(collection.members[paginator.range(ofPage: number)])
            page = withSocialImage(page, members.first.map { items[$0] })
            let root = page.root
            let tiles = members.enumerated().map { offset, index in tile(index, items, root: root, eager: offset < Self.eagerTiles) }
            let pages = pagination(number, of: paginator, page: &page) { root + collection.path(in: folder, page: $0) }
            let context = GridContext(site: site, page: page, heading: heading, intro: Self.countLabel(collection.members.count),
                                      parentHref: root + "\(folder)/index.html", parentLabel: parentLabel, photos: tiles,
                                      photoCount: collection.members.count, pagination: pages)
            return try render(context, "grid", path)
        }
    }
}
