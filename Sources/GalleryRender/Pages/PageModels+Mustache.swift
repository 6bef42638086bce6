import Mustache

// How templates reach the page models' fields. Without these, swift-mustache finds every
// `{{name}}` through `Mirror` reflection, once per lookup and once more for every level of the
// context stack it climbs; on 10,000 photo pages that was 34 of a no-op build's 38 CPU seconds.
// A switch per model answers in nanoseconds. A nil optional answers nil, as Mirror's path does, so
// the lookup climbs the stack exactly as before. `TemplateFieldTests` checks that every stored
// property of every model is answered here with the same value, so a field added to a model
// but not here fails the tests instead of rendering empty.

extension SiteContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "description": description
        case "generator": generator
        case "slideshowSeconds": slideshowSeconds
        case "lang": lang
        case "t": t
        case "searchStrings": searchStrings
        default: nil
        }
    }
}

extension PageContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "description": description
        case "root": root
        case "canonical": canonical
        case "prevHref": prevHref
        case "nextHref": nextHref
        case "assets": assets
        case "homeHref": homeHref
        case "albumsHref": albumsHref
        case "tagsHref": tagsHref
        case "feedHref": feedHref
        case "isHome": isHome
        case "isAlbums": isAlbums
        case "isTags": isTags
        case "mapHref": mapHref
        case "isMap": isMap
        case "noindex": noindex
        case "social": social
        case "jsonLD": jsonLD.flatMap { try? $0.scriptSafeJSON() }
        case "inlineStylesheet": inlineStylesheet
        default: nil
        }
    }
}

extension SocialCard: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "type": type
        case "twitterCard": twitterCard
        case "image": image
        case "imageWidth": imageWidth
        case "imageHeight": imageHeight
        case "imageAlt": imageAlt
        default: nil
        }
    }
}

extension GridTile: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "src": src
        case "srcset": srcset
        case "webpSrcset": webpSrcset
        case "avifSrcset": avifSrcset
        case "hasSources": avifSrcset != nil || webpSrcset != nil
        case "sizes": sizes
        case "width": width
        case "height": height
        case "alt": alt
        case "title": title
        case "loading": loading
        case "style": style
        case "transitionName": transitionName
        case "duration": duration
        default: nil
        }
    }
}

extension TagLink: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "name": self.name
        case "href": href
        case "count": count
        default: nil
        }
    }
}

extension PageNumber: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "number": number
        case "href": href
        case "isCurrent": isCurrent
        case "isGap": isGap
        default: nil
        }
    }
}

extension Pagination: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "current": current
        case "total": total
        case "prevHref": prevHref
        case "nextHref": nextHref
        case "pages": pages
        default: nil
        }
    }
}

extension GridContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "site": site
        case "page": page
        case "heading": heading
        case "intro": intro
        case "parentHref": parentHref
        case "parentLabel": parentLabel
        case "photos": photos
        case "photoCount": photoCount
        case "pagination": pagination
        case "slideshowHref": slideshowHref
        case "descriptionHTML": descriptionHTML
        case "breadcrumbs": breadcrumbs
        case "subAlbums": subAlbums
        case "download": download
        default: nil
        }
    }
}

extension AlbumsContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "site": site
        case "page": page
        case "heading": heading
        case "albums": albums
        default: nil
        }
    }
}

extension TagsContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "site": site
        case "page": page
        case "heading": heading
        case "tags": tags
        default: nil
        }
    }
}

extension NotFoundContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "site": site
        case "page": page
        default: nil
        }
    }
}

extension MapContext: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "site": site
        case "page": page
        case "heading": heading
        case "intro": intro
        case "tileURL": tileURL
        case "attribution": attribution
        case "dataHref": dataHref
        case "photos": photos
        case "moreText": moreText
        default: nil
        }
    }
}

extension MapPhoto: MustacheParent {
    func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "href": href
        case "coordinates": coordinates
        default: nil
        }
    }
}

extension MetadataRow: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "label": label
        case "value": value
        default: nil
        }
    }
}

extension DownloadLink: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "name": self.name
        case "label": label
        default: nil
        }
    }
}
