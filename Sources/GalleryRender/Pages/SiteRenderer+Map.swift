import Foundation
import GalleryModel

/// `map/index.html` (only with `images.showLocation`): every located photo on a Leaflet map,
/// clustered, from `map/photos.js`; without JavaScript, a list of them with their coordinates.
extension SiteRenderer {
    /// Photos the page lists for readers without JavaScript; the map shows them all.
    static let mapListLimit = 500

    /// The located photos of listed albums (or none), in the site's order.
    package func located(_ plan: SitePlan) -> [Int] {
        showLocation
            ? plan.items.indices.filter {
                plan.items.facts[$0].hasLocation && !plan.sections.albums.isUnlisted(item: $0)
            } : []
    }

    func mapModel(_ plan: SitePlan) throws -> PageModel {
        var page = pageContext(
            path: SiteLayout.map, title: "\(strings.text("mapTitle")) · \(title)", description: nil,
            sections: plan.sections)
        page.isMap = true
        let indices = located(plan)
        let photos = try indices.prefix(Self.mapListLimit).map { index -> MapPhoto in
            let item = try plan.items[index]
            return MapPhoto(
                id: item.photo.id, title: item.photo.title ?? item.altText, href: page.root + item.pagePath,
                coordinates: item.photo.location.map(Formatting.coordinates) ?? "")
        }
        let context = MapContext(
            site: site, page: page, heading: strings.text("mapTitle"),
            intro: strings.count("mapCount", indices.count),
            tileURL: mapSettings.tileURL, attribution: mapSettings.attribution, dataHref: "photos.js",
            photos: photos,
            moreText: indices.count > photos.count
                ? strings.text("mapMore", ["n": String(indices.count - photos.count)]) : nil)
        return PageModel(path: SiteLayout.map, template: "map", context: context)
    }

    /// `map/photos.js`: `window.galleryMapPhotos = [[latitude, longitude, title, page, thumbnail, id], …];`,
    /// paths relative to the site root. Nil without `images.showLocation`: no position is published then.
    package func mapData(_ plan: SitePlan) throws -> RenderedPage? {
        guard showLocation else { return nil }
        let rows: [[SearchShards.JSONScalar]] = try located(plan).compactMap { index in
            let item = try plan.items[index]
            guard let point = item.photo.location else { return nil }
            return [
                .decimal(point.latitude), .decimal(point.longitude), .text(item.photo.title ?? item.altText),
                .text(item.pagePath), .text(item.plan.thumbnail.path), .text(item.photo.id)
            ]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        var data = Data("window.galleryMapPhotos = ".utf8)
        data.append(try encoder.encode(rows))
        data.append(contentsOf: ";\n".utf8)
        return RenderedPage(path: SiteLayout.mapData, contents: data)
    }
}
