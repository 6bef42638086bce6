import Mustache

// The album models: cards, sub-album lists and breadcrumbs. See PageModels.swift for what models
// hold and PageModels+Mustache.swift for why each answers its fields through a switch.

/// An album's card, on the albums index and its parent album's page: its cover and its size.
package struct CollectionTile: Encodable {
    /// The album's title.
    package var name: String
    package var href: String
    /// Photos in the album and all its sub-albums.
    package var count: Int
    /// Its direct sub-albums.
    var albumCount: Int
    /// `5 photos`, or `12 photos · 2 albums` when it has sub-albums.
    var countLabel: String
    package var cover: GridTile
}

/// Sub-album cards on an album's first page, for the `album-cards` partial.
package struct AlbumCards: Encodable {
    package var albums: [CollectionTile]
}

/// Where a page sits among the albums: `Albums › 2024 › Iceland`, then the page itself.
package struct Breadcrumbs: Encodable {
    /// The albums index and each album above the page, from the top.
    package var links: [Crumb]
    /// The page's own album or photo title.
    package var current: String
}

/// One link of a breadcrumb trail.
package struct Crumb: Encodable {
    package var name: String
    package var href: String
}

extension CollectionTile: MustacheParent {
    package func child(named name: String) -> Any? {
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
    package func child(named name: String) -> Any? {
        switch name {
        case "albums": albums
        default: nil
        }
    }
}

extension Breadcrumbs: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "links": links
        case "current": current
        default: nil
        }
    }
}

extension Crumb: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "href": href
        default: nil
        }
    }
}
