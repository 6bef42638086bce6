import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import GalleryRender

/// Sites planned and rendered in memory, without images, for the album and sort tests.
struct AlbumFixture {
    let renderer: SiteRenderer
    let config: SiteConfig

    /// A renderer for the fixture config with `changes` merged in (`pageSize` 3 unless changed).
    init(_ changes: [String: Any] = [:]) throws {
        let fixture = try FixtureSite.make(entries: [], config: changes)
        config = try SiteConfig.load(from: fixture.configURL, environment: [:])
        let theme = try Theme(overridesIn: nil)
        renderer = try SiteRenderer(config: config, theme: theme, assets: Assets(staticFiles: theme.staticFiles))
    }

    /// A photo with only what ordering and albums look at.
    static func photo(
        _ id: String, album: String? = nil, taken: String? = nil, title: String? = nil,
        rating: Int? = nil
    ) -> Photo {
        var photo = Photo(
            id: id, title: title ?? "Photo \(id)", takenAt: taken, tags: ["all"], album: album,
            image: .file(URL(fileURLWithPath: "/photos/\(id).jpg")))
        photo.rating = rating
        return photo
    }

    /// Items for `photos`, in the given (source) order.
    func items(_ photos: [Photo]) -> [GalleryItem] {
        photos.enumerated().map { index, photo in
            let display = PixelSize(width: 1200 + index, height: 900)
            return GalleryItem(
                photo: photo, displaySize: display,
                plan: DerivativePlan(display: display, settings: config.images, folder: "photos/\(photo.id)"),
                averageColor: "#336699", placeholderKey: Fixtures.key(photo.id), original: .none)
        }
    }

    func plan(_ photos: [Photo], albums: [String: AlbumInfo] = [:]) throws -> SitePlan {
        try renderer.plan(items(photos), albums: albums, placeholders: Fixtures.placeholder)
    }

    /// Every page of the plan rendered, by path.
    func render(_ plan: SitePlan) throws -> [String: String] {
        var pages: [String: String] = [:]
        for page in plan.pages {
            let model = try renderer.model(of: page, in: plan)
            pages[model.path] = String(decoding: try renderer.render(model), as: UTF8.self)
        }
        return pages
    }

    /// The ids of the photos whose tiles a rendered grid page shows, in order.
    static func tileIDs(_ html: String) -> [String] {
        html.matches(of: /class="tile" href="(?:\.\.\/)*photos\/([^\/]+)\//).map { String($0.1) }
    }
}
