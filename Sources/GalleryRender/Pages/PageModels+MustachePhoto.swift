import Mustache

// The photo page's and the feed's models; see PageModels+Mustache.swift for why these exist.

extension PhotoContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "alt": alt
        case "descriptionHTML": descriptionHTML
        case "src": src
        case "srcset": srcset
        case "webpSrcset": webpSrcset
        case "avifSrcset": avifSrcset
        case "hasSources": avifSrcset != nil || webpSrcset != nil
        case "sizes": sizes
        case "width": width
        case "height": height
        case "transitionName": transitionName
        case "stageStyle": stageStyle
        case "thumbSrc": thumbSrc
        case "thumbWidth": thumbWidth
        case "thumbHeight": thumbHeight
        case "fullSizeHref": fullSizeHref
        case "fullSizeLabel": fullSizeLabel
        case "download": download
        case "zoomSrc": zoomSrc
        case "zoomWidth": zoomWidth
        case "zoomHeight": zoomHeight
        case "sourceHref": sourceHref
        case "sourceLabel": sourceLabel
        case "location": location
        case "locationHref": locationHref
        case "takenAtDisplay": takenAtDisplay
        case "takenAtMachine": takenAtMachine
        case "author": author
        case "authorHref": authorHref
        case "licenseName": licenseName
        case "licenseHref": licenseHref
        case "album": album
        case "albumHref": albumHref
        case "mapHref": mapHref
        case "tags": tags
        case "hasTags": hasTags
        case "exif": exif
        case "video": video
        case "motionSrc": motionSrc
        case "animated": animated
        case "motionIsImage": motionIsImage
        case "motionFormat": motionFormat
        default: nil
        }
    }
}

extension VideoContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "src": src
        case "type": type
        case "poster": poster
        case "width": width
        case "height": height
        case "duration": duration
        case "durationMachine": durationMachine
        default: nil
        }
    }
}

extension NeighborLink: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "href": href
        case "title": title
        case "srcset": srcset
        case "sizes": sizes
        default: nil
        }
    }
}

extension PhotoPageContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "site": site
        case "page": page
        case "photo": photo
        case "prev": prev
        case "next": next
        case "backHref": backHref
        case "backPage": backPage
        case "backLabel": backLabel
        case "position": position
        case "total": total
        case "backText": backText
        case "positionText": positionText
        case "breadcrumbs": breadcrumbs
        default: nil
        }
    }
}

extension FeedContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "title": title
        case "subtitle": subtitle
        case "selfHref": selfHref
        case "homeHref": homeHref
        case "id": id
        case "updated": updated
        case "entries": entries
        default: nil
        }
    }
}

extension FeedEntry: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "id": id
        case "title": title
        case "href": href
        case "updated": updated
        case "author": author
        case "authorURI": authorURI
        case "contentHTML": contentHTML
        case "tags": tags
        case "rights": rights
        case "imageHref": imageHref
        case "imageType": imageType
        case "videoHref": videoHref
        default: nil
        }
    }
}

extension SitemapContext: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "urls": urls
        default: nil
        }
    }
}

extension SitemapURL: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "loc": loc
        case "video": video
        default: nil
        }
    }
}

extension SitemapVideo: MustacheParent {
    package func child(named name: String) -> Any? {
        switch name {
        case "thumbnail": thumbnail
        case "title": title
        case "description": description
        case "contentLoc": contentLoc
        case "duration": duration
        default: nil
        }
    }
}
