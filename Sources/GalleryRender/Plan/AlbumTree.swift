import Foundation
import GalleryKeys
import GalleryModel

/// The site's albums as a tree: every prefix of a photo's album path is an album with a page, so
/// `2024/Iceland/Day 1` makes `2024`, `2024/Iceland` and `2024/Iceland/Day 1`.
///
/// Albums are listed parents first, siblings in the order their first photo appears in the site's
/// order; each page lives at `albums/<slug>/<slug>/…/index.html`, a slug per level, unique among
/// siblings. Worked out once per render from the sorted items and the sources' `AlbumInfo`.
package struct AlbumTree: Sendable {
    package struct Album: Sendable {
        /// The cleaned path, `2024/Iceland` (`AlbumPath.normalized`).
        package var path: String
        /// The title from `AlbumInfo`, else the last path component.
        package var title: String
        package var info: AlbumInfo
        /// The slugs from the top down, joined: `2024/iceland`.
        package var slugPath: String
        package var parent: Int?
        /// Its sub-albums; of a listed album, only the listed ones.
        package var children: [Int] = []
        /// Item indices of the album's own photos, in its order (its `sort`, else the nearest album's
        /// above it, else the site's).
        package var members: [Int] = []
        /// Photos in the album and all its sub-albums.
        package var total = 0
        /// The item shown on its card: `info.cover`, else its first photo, else its first sub-album's cover.
        package var cover: Int?
        /// False when it or an album above it has `showInHome: false` or is unlisted.
        var inHome = true
        /// False when it or an album above it is unlisted: reachable by its link only, never listed.
        package var listed = true
        /// Its `download`, else the nearest album's above it, else the site's.
        package var download = DownloadSetting.off

        /// Whether the album gets a zip of its own photos: `download` is `album` and it did not switch
        /// its zip off (`zip: false`, sigal's `.nozip_gallery`).
        package var zipped: Bool { download == .album && info.zip != false && !members.isEmpty }

        /// Root-relative path of the album's 1-based page.
        package func path(page: Int) -> String {
            SiteLayout.listing(SiteLayout.album(slugPath), page: page)
        }
    }

    package var albums: [Album] = []
    /// The listed top-level albums, in order.
    package var roots: [Int] = []
    /// Item index → index of the album it is directly in.
    package var albumOfItem: [Int: Int] = [:]
    /// Item index → its position among its album's `members`.
    var positionInAlbum: [Int: Int] = [:]

    /// - Parameters:
    ///   - items: The site's items, already in the site's order.
    ///   - infos: Album settings keyed by album path, as sources give them (cleaned here).
    ///   - sources: Each item's position in the source's list, for albums sorted otherwise than the site.
    ///   - sort: The site's order, for albums without their own.
    ///   - tokens: The unguessable token of each album marked `unlisted`, by cleaned path, added to its slug.
    ///   - folders: The folder name of each album inside a protected one, by cleaned path: a token alone,
    ///     which says nothing of its name.
    ///   - download: The site's `download`, for albums without one of their own or above them.
    package init(
        _ items: [ItemFacts], sources: [Int], infos: [String: AlbumInfo], sort: PhotoSort,
        tokens: [String: String] = [:], folders: [String: String] = [:], download: DownloadSetting = .off
    ) {
        var settings: [String: AlbumInfo] = [:]
        for key in infos.keys.sorted() {
            guard let path = AlbumPath.normalized(key), settings[path] == nil, let info = infos[key] else { continue }
            settings[path] = info
        }
        var indexOfPath: [String: Int] = [:]
        var usedSlugs: [Int: Set<String>] = [:]  // parent album (-1: the top) → its children's slugs
        for (item, photo) in items.enumerated() {
            let parts = AlbumPath.components(photo.album)
            var parent: Int?
            for depth in parts.indices {
                let path = parts[...depth].joined(separator: "/")
                if let known = indexOfPath[path] {
                    parent = known
                    continue
                }
                let info = settings[path] ?? AlbumInfo()
                // "page" is taken by the parent's own paging (`…/page/2/`) below the top level.
                var used: Set<String> = usedSlugs[parent ?? -1] ?? (parent == nil ? [] : ["page"])
                // A folder with a token is unique by it, and takes no slug from its siblings: a public
                // album's address never depends on a hidden one beside it (`-2` would confirm it).
                let hidden = folders[path] != nil || tokens[path] != nil
                let slug =
                    hidden
                    ? PhotoCollection.slug(parts[depth])
                    : Self.uniqueSlug(PhotoCollection.slug(parts[depth]), among: used)
                if !hidden {
                    used.insert(slug)
                    usedSlugs[parent ?? -1] = used
                }
                let index = albums.count
                let title = info.title.flatMap { UntrustedText.clean($0, max: AlbumPath.maxNameLength) } ?? parts[depth]
                let folder = folders[path] ?? tokens[path].map { "\(slug)-\($0)" } ?? slug
                let listed =
                    folders[path] == nil && tokens[path] == nil && info.unlisted != true
                    && (parent.map { albums[$0].listed } ?? true)
                let album = Album(
                    path: path, title: title, info: info,
                    slugPath: parent.map { albums[$0].slugPath + "/" + folder } ?? folder, parent: parent,
                    inHome: listed && (info.showInHome ?? true) && (parent.map { albums[$0].inHome } ?? true),
                    listed: listed, download: info.download ?? parent.map { albums[$0].download } ?? download)
                albums.append(album)
                if let parent { albums[parent].children.append(index) } else { roots.append(index) }
                indexOfPath[path] = index
                parent = index
            }
            if let parent {
                albums[parent].members.append(item)
                albumOfItem[item] = parent
            }
        }
        // Only albums that name their cover need an item by its id; a site of 1,000,000 photos rarely has many.
        let covers = Set(albums.compactMap(\.info.cover))
        var idToItem: [String: Int] = [:]
        if !covers.isEmpty {
            for (index, item) in items.enumerated() where covers.contains(item.id) && idToItem[item.id] == nil {
                idToItem[item.id] = index
            }
        }
        // An album without a sort of its own takes the nearest one above it (parents come first).
        var sortOf: [PhotoSort?] = []
        for album in albums { sortOf.append(album.info.sort ?? album.parent.flatMap { sortOf[$0] }) }
        for index in albums.indices {
            guard let own = sortOf[index], own != sort else { continue }
            let members = albums[index].members
            let itemAt = Dictionary(members.map { (sources[$0], $0) }, uniquingKeysWith: { first, _ in first })
            let sorted = PhotoOrder.sorted(members.map { sources[$0] }, by: own) { items[itemAt[$0] ?? 0].sortPhoto }
            albums[index].members = sorted.compactMap { itemAt[$0] }
        }
        for index in albums.indices {
            albums[index].members = PhotoOrder.manual(albums[index].members) { items[$0].order }
        }
        // Sub-albums follow their photos' order, so they come in order of first appearance, except by
        // name: `Day 1`, `Day 2`, `Day 10` then, whatever their dates.
        func byName(_ list: [Int], _ order: PhotoSort?) -> [Int] {
            guard let order, order.key == .name else { return list }
            return list.sorted {
                let compared = NameChunk.compare(NameChunk.split(albums[$0].title), NameChunk.split(albums[$1].title))
                return compared == 0 ? $0 < $1 : (order.descending ? compared > 0 : compared < 0)
            }
        }
        // An album's place by hand (its parent's `order` list, its `weight`) comes before both.
        func placed(_ list: [Int]) -> [Int] { PhotoOrder.manual(list) { albums[$0].info.order } }
        for index in albums.indices {
            albums[index].children = placed(byName(albums[index].children, sortOf[index] ?? sort))
        }
        roots = placed(byName(roots, sort))
        // Unlisted albums are nobody's child or root in the listed part of the tree: a listed album
        // shows, counts and takes a cover from its listed sub-albums only.
        for index in albums.indices where albums[index].listed {
            albums[index].children = albums[index].children.filter { albums[$0].listed }
        }
        roots = roots.filter { albums[$0].listed }
        // Children come after their parents, so a backward pass sees every sub-album first.
        for index in albums.indices.reversed() {
            let album = albums[index]
            let total = album.members.count + album.children.reduce(0) { $0 + albums[$1].total }
            // A listed album's card never shows a photo of an unlisted or protected album, whatever its `cover` names.
            let named = album.info.cover.flatMap { idToItem[$0] }.flatMap {
                album.listed && isUnlisted(item: $0) ? nil : $0
            }
            let cover =
                named ?? album.members.first
                ?? album.children.compactMap { albums[$0].cover }.first
            albums[index].total = total
            albums[index].cover = cover
            for (position, item) in album.members.enumerated() { positionInAlbum[item] = position }
        }
        hideEmptyAlbums()
    }

    /// A listed album with nothing listed in it (its photos are all in hidden albums below it) would
    /// say that something is hidden there ("Family · 0 photos"): it is listed nowhere, and its page,
    /// which lists nothing, is kept out of search engines and the sitemap like an unlisted one's.
    private mutating func hideEmptyAlbums() {
        let empty = Set(albums.indices.filter { albums[$0].listed && albums[$0].total == 0 })
        guard !empty.isEmpty else { return }
        for index in empty {
            albums[index].listed = false
            albums[index].inHome = false
            albums[index].children = []
        }
        for index in albums.indices { albums[index].children.removeAll { empty.contains($0) } }
        roots.removeAll { empty.contains($0) }
    }

    /// `base`, or `base-2`, `base-3`… whichever is not in `used` yet.
    static func uniqueSlug(_ base: String, among used: Set<String>) -> String {
        var candidate = base
        var counter = 2
        while used.contains(candidate) {
            candidate = "\(base)-\(counter)"
            counter += 1
        }
        return candidate
    }

    /// Whether any album is listed (the albums index exists).
    var hasListed: Bool { albums.contains(where: \.listed) }

    /// Whether the item is in an unlisted album.
    func isUnlisted(item: Int) -> Bool { albumOfItem[item].map { !albums[$0].listed } ?? false }

    /// The album and the albums above it, from the top.
    func trail(to index: Int) -> [Int] {
        var trail = [index]
        while let parent = albums[trail[0]].parent { trail.insert(parent, at: 0) }
        return trail
    }

    /// A digest of the album settings the pages show, for the site key (`PagePublisher.siteKey`).
    package static func infoKey(_ infos: [String: AlbumInfo], tokens: [String: String] = [:]) -> Digest {
        var key = CacheKey("album settings")
        for (path, info) in infos.sorted(by: { $0.key < $1.key }) {
            key.add(path)
            for field in [
                info.title, info.description, info.cover, info.sort?.description, info.showInHome.map { "\($0)" },
                info.download?.rawValue
            ] {
                key.add(field ?? "\u{0}")
            }
            // Added only when set, so the keys of sites without unlisted albums stay as they were.
            if info.unlisted == true { key.add("unlisted " + (tokens[AlbumPath.normalized(path) ?? path] ?? "")) }
            if let order = info.order { key.add("order \(order)") }
            if info.zip == false { key.add("no zip") }
        }
        return key.finish()
    }
}
