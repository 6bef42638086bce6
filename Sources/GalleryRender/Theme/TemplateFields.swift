/// Every name a page model answers to a template, for warning about a `{{name}}` that nothing has.
///
/// A misspelt variable renders as nothing, without a word; `Theme.warnings()` checks each name a
/// template uses against this list. It is the union of the names the models' `child(named:)`
/// answer; PageModelTests checks that every stored property of every model is in it, and that the
/// default theme uses no name outside it.
package enum TemplateFields {
    package static let names: Set<String> = [
        "album", "albumCount", "albumHref", "albums", "albumsHref", "alt", "assets", "attribution", "author",
        "authorHref", "avifSrcset",
        "authorURI", "backHref", "backLabel", "backPage", "backText", "breadcrumbs", "canonical", "contentHTML",
        "contentLoc", "coordinates", "count", "countLabel", "cover", "current", "dataHref", "description",
        "descriptionHTML", "download", "duration", "durationMachine", "entries", "exif", "feedHref", "folder",
        "keyFile", "vault", "worker", "except", "fullSizeHref", "fullSizeLabel",
        "generator", "hasSources", "hasTags", "heading", "height", "homeHref", "href", "id", "image", "imageAlt",
        "imageHeight",
        "imageHref", "imageType", "imageWidth", "inlineStylesheet", "intro", "isAlbums", "isCurrent", "isGap", "isHome",
        "isMap", "isTags", "jsonLD", "label", "lang", "licenseHref", "licenseName", "links", "loading", "loc",
        "location", "noindex",
        "locationHref", "mapHref", "moreText", "motionSrc", "motionIsImage", "motionFormat", "animated", "name", "next",
        "nextHref", "number", "page", "pages",
        "pagination",
        "parentHref", "parentLabel", "photo", "photoCount", "photos", "position", "positionText", "poster", "prev",
        "prevHref", "rights", "root", "searchStrings", "selfHref", "site", "sizes", "slideshowHref", "slideshowSeconds",
        "social", "sourceHref", "sourceLabel", "src", "srcset", "stageStyle", "style", "subAlbums", "subtitle", "t",
        "tags", "tagsHref", "takenAtDisplay", "takenAtMachine", "thumbHeight", "thumbnail", "thumbSrc", "thumbWidth",
        "tileURL", "title", "total", "transitionName", "twitterCard", "type", "updated", "urls", "value", "video",
        "videoHref", "webpSrcset", "width", "zoomHeight", "zoomSrc", "zoomWidth"
    ]

    /// Fields that hold a table of text by key (`site.t.next`, `page.assets.style_css`): what follows
    /// them in a dotted name is a key of the table, not a field.
    package static let tables: Set<String> = ["t", "assets", "searchStrings"]

    /// Names swift-mustache answers inside a list section: `{{#first}}`, `{{index}}`…
    static let sequenceNames: Set<String> = ["first", "last", "index", "even", "odd"]

    /// The first part of a tag's name that no model has, if any: `titel` in `photo.titel`.
    static func unknownPart(of name: String) -> String? {
        var name = Substring(name)
        // A transform, `lowercased(title)`, applies to the name in brackets.
        if let open = name.lastIndex(of: "("), let close = name[open...].firstIndex(of: ")") {
            name = name[name.index(after: open)..<close]
        }
        guard name != "." else { return nil }
        for part in name.split(separator: ".", omittingEmptySubsequences: false) {
            let part = String(part)
            if tables.contains(part) { return nil }
            if !names.contains(part) && !sequenceNames.contains(part) { return part }
        }
        return nil
    }
}
