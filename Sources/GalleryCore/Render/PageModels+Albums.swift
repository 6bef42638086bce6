import Mustache

// The album models: cards, sub-album lists and breadcrumbs. See PageModels.swift for what models
// hold and PageModels+Mustache.swift for why each answers its fields through a switch.

/// An album's card, on the albums index and its parent album's page: its cover and its size.
struct CollectionTile: Encodable {
    /// The album's title.
    var name: String
    var href: String
    /// Photos in the album and all its sub-albums.
    var count: Int
    /// Its direct sub-albums.
    var albumCount: Int
    /// `5 photos`, or `12 photos · 2 albums` when it has sub-albums.
    var countLabel: String
    var cover: GridTile
}

/// Sub-album cards on an album's first page, for the `album-cards` partial.
struct AlbumCards: Encodable {
    var albums: [CollectionTile]
}

/// Where a page sits among the albums: `Albums › 2024 › Iceland`, then the page itself.
struct Breadcrumbs: Encodable {
    /// The albums index and each album above the page, from the top.
    var links: [Crumb]
    /// The page's own album or photo title.
    var current: String
}

/// One link of a breadcrumb trail.
struct Crumb: Encodable {
    var name: String
    var href: String
}

extension CollectionTile: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "href": href
        case "count": count
        case "albumCount": albumCount
        case "countLabel": countLabel
        case "cover": cover
        default: nil
        }
    }
}

extension AlbumCards: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "albums": albums
        default: nil
        }
    }
}

extension Breadcrumbs: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "links": links
        case "current": current
        default: nil
        }
    }
}

extension Crumb: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "href": href
        default: nil
        }
    }
}
