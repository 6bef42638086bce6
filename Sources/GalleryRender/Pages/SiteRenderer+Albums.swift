import Foundation
import GalleryModel

/// Album pages, the albums index, album cards and breadcrumbs, and the list a photo page steps
/// through (the home grid, or the album of a photo left out of it).
extension SiteRenderer {
    /// The albums index: the top-level albums' cards.
    func albumsIndexModel(_ plan: SitePlan) throws -> PageModel {
        let tree = plan.sections.albums
        var page = pageContext(
            path: SiteLayout.albums, title: "\(strings.text("albumsHeading")) · \(title)", description: nil,
            sections: plan.sections)
        page.isAlbums = true
        page = withSocialImage(page, try tree.roots.first.flatMap { tree.albums[$0].cover }.map { try plan.items[$0] })
        let root = page.root
        let albums = try albumCards(tree.roots, plan, root: root)
        return PageModel(
            path: SiteLayout.albums, template: "albums",
            context: AlbumsContext(site: site, page: page, heading: strings.text("albumsHeading"), albums: albums))
    }

    /// One page of an album: on the first, its description and its sub-albums' cards; on every
    /// page, a page of its own photos and the breadcrumbs.
    func albumModel(_ index: Int, page number: Int, _ plan: SitePlan) throws -> PageModel {
        let tree = plan.sections.albums
        let album = tree.albums[index]
        let paginator = Paginator(itemCount: album.members.count, pageSize: pageSize)
        let path = album.path(page: number)
        let pageTitle = number == 1 ? album.title : pageOf(album.title, number, paginator.pageCount)
        let summary = album.info.description.map { Markdown.plainText($0, limit: 200) }
        var page = pageContext(
            path: path, title: "\(pageTitle) · \(title)", description: summary,
            sections: plan.sections)
        page.isAlbums = true
        page.noindex = !album.listed
        let members = Array(album.members[paginator.range(ofPage: number)])
        page = withSocialImage(page, try (members.first ?? album.cover).map { try plan.items[$0] })
        let root = page.root
        let cards = number == 1 ? try albumCards(album.children, plan, root: root) : []
        let tiles = try tiles(members, plan, root: root, before: cards.count)
        let pages = pagination(number, of: paginator, page: &page) { root + album.path(page: $0) }
        let parent = album.parent.map { tree.albums[$0] }
        var context = GridContext(
            site: site, page: page, heading: album.title, intro: countLabel(album),
            parentHref: root + (parent?.path(page: 1) ?? SiteLayout.albums),
            parentLabel: parent?.title ?? strings.text("allAlbums"),
            photos: tiles, photoCount: album.members.count, pagination: pages, slideshowHref: tiles.first?.href,
            descriptionHTML: number == 1 ? album.info.description.map(Markdown.html) : nil,
            breadcrumbs: Breadcrumbs(links: crumbs(above: index, tree, root: root), current: album.title),
            subAlbums: cards.isEmpty ? nil : AlbumCards(albums: cards))
        if number == 1, let zip = plan.downloads[index] {
            // An unlisted or protected album's zip is named by its folder's token; the reader's copy by its title.
            let slug = PhotoID.slug(album.title)
            let name =
                album.listed
                ? zip.path.split(separator: "/").last.map(String.init) ?? "album.zip"
                : (slug.isEmpty ? "album" : slug) + ".zip"
            context.download = DownloadLink(href: root + zip.path, name: name, label: downloadAllLabel(zip))
        }
        return PageModel(path: path, template: "grid", context: context)
    }

    /// "Download all (24 photos, 183 MB)": megabytes of 1,000,000 bytes, as file managers count them.
    func downloadAllLabel(_ zip: AlbumDownload) -> String {
        let megabytes = Double(zip.bytes) / 1_000_000
        let size = megabytes < 10 ? Formatting.fixed(max(megabytes, 0.1), digits: 1) : String(Int(megabytes.rounded()))
        return strings.text(
            zip.count == 1 ? "downloadAllOne" : "downloadAllMany", ["n": String(zip.count), "size": size])
    }

    /// The cards of these albums, in one grid: each its title, cover and size; none for an album
    /// without any photo.
    package func albumCards(_ indices: [Int], _ plan: SitePlan, root: String) throws -> [CollectionTile] {
        let shown = indices.compactMap { index -> (album: AlbumTree.Album, cover: Int)? in
            let album = plan.sections.albums.albums[index]
            return album.cover.map { (album, $0) }
        }
        let covers = try shown.map { try plan.items[$0.cover] }
        let sizes = Self.gridSizes(aspects: covers.map(Self.aspect))
        return shown.enumerated().map { offset, card in
            CollectionTile(
                name: card.album.title, href: root + card.album.path(page: 1), count: card.album.total,
                albumCount: card.album.children.count, countLabel: countLabel(card.album),
                cover: tile(
                    card.cover, covers[offset], plan, root: root, eager: offset < Self.eagerTiles,
                    sizes: sizes[offset]))
        }
    }

    /// `5 photos`, counting sub-albums' photos, and `· 2 albums` when it has sub-albums.
    func countLabel(_ album: AlbumTree.Album) -> String {
        album.children.isEmpty
            ? countLabel(album.total)
            : "\(countLabel(album.total)) · \(strings.count("albumCount", album.children.count))"
    }

    /// Links to the albums index and to each album above `index`, from the top.
    func crumbs(above index: Int, _ tree: AlbumTree, root: String) -> [Crumb] {
        [Crumb(name: strings.text("albumsHeading"), href: root + SiteLayout.albums)]
            + tree.trail(to: index).dropLast().map {
                Crumb(name: tree.albums[$0].title, href: root + tree.albums[$0].path(page: 1))
            }
    }

    /// The list a photo page steps through with prev/next, and the grid page it goes back to.
    struct PhotoSequence {
        /// Item indices, in order.
        var members: [Int]
        var position: Int
        var backPath: String
        var backPage: Int
        var backLabel: String
    }

    /// The home grid for photos on it; their album for photos of albums left out of it.
    func navigation(of index: Int, _ plan: SitePlan) -> PhotoSequence {
        let tree = plan.sections.albums
        if let position = plan.homePosition[index] {
            let page = plan.paginator.page(ofItem: position)
            return PhotoSequence(
                members: plan.home, position: position, backPath: Paginator.path(ofPage: page),
                backPage: page, backLabel: strings.text("allPhotos"))
        }
        guard let albumIndex = tree.albumOfItem[index], let position = tree.positionInAlbum[index] else {
            // Every photo is on the home grid or in an album; a lone list is the safe answer anyway.
            return PhotoSequence(
                members: [index], position: 0, backPath: Paginator.path(ofPage: 1), backPage: 1,
                backLabel: strings.text("allPhotos"))
        }
        let album = tree.albums[albumIndex]
        let page = position / pageSize + 1
        return PhotoSequence(
            members: album.members, position: position, backPath: album.path(page: page), backPage: page,
            backLabel: album.title)
    }
}
