import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import GalleryPipeline
import GalleryRender
import Testing

/// The site's items live in a file with no name and are read back when a page shows them.
@Suite("Items kept on disk") struct ItemListTests {
    static func item(_ index: Int) throws -> GalleryItem {
        var photo = Photo(
            id: "p\(index)", title: index.isMultiple(of: 2) ? "Title \(index) \u{e9}\"<>" : nil,
            description: "Caption **\(index)**", author: "A", authorURL: URL(string: "https://a.example/\(index)"),
            takenAt: "2024-05-0\(index % 9 + 1)T10:00:00", tags: ["sea", "t\(index % 3)"],
            album: index.isMultiple(of: 3) ? "2024/Trip" : nil, license: License(name: "CC-BY-4.0"),
            image: .remote(URL(string: "https://img.example.com/\(index).jpg")!),
            camera: CameraInfo(make: "Canon", iso: 100 + index),
            location: index.isMultiple(of: 4) ? GeoPoint(latitude: 59.9, longitude: 10.7) : nil)
        photo.rating = index % 6 - 1
        photo.fallbackTitle = "IMG \(index)"
        photo.fallbackTakenAt = index.isMultiple(of: 5) ? "2019-06-10T08:14:05Z" : nil  // Google Takeout's
        let display = PixelSize(width: 1600 + index, height: 1200)
        var settings = try ImageSettings.defaults()
        settings.webp = index.isMultiple(of: 2)
        settings.avif = index.isMultiple(of: 3)  // every mix of the two twins
        return GalleryItem(
            photo: photo, displaySize: display,
            plan: DerivativePlan(display: display, settings: settings, folder: "photos/p\(index)"),
            averageColor: "#33669\(index % 10)", placeholderKey: Fixtures.key("p\(index)"),
            original: [.none, .published("originals/\(index).jpg"), .remote("https://o.example/\(index)")][index % 3])
    }

    static func same(_ read: GalleryItem, _ written: GalleryItem) -> Bool {
        read.photo == written.photo && read.displaySize == written.displaySize && read.plan == written.plan
            && read.averageColor == written.averageColor && read.placeholderKey == written.placeholderKey
            && read.original == written.original
    }

    @Test func itemsReadBackAsWrittenInAnyOrder() throws {
        let folder = try Fixtures.temporaryFolder()
        let items = try (0..<50).map(Self.item)
        var builder = try ItemList.Builder(folder: folder)
        let arrival = Array(items.indices).shuffled()
        for index in arrival { builder.append(items[index]) }
        // Back in manifest order, as `publishAll` does with the arrival order.
        builder.permute(by: arrival.indices.sorted { arrival[$0] < arrival[$1] })
        var list = try builder.finish()
        #expect(list.count == 50)
        for index in list.indices {
            #expect(try Self.same(list[index], items[index]), "item \(index)")
            #expect(list.facts[index].id == items[index].photo.id)
            #expect(list.facts[index].tags == items[index].photo.tags)
            #expect(list.facts[index].hasLocation == (items[index].photo.location != nil))
            #expect(list.facts[index].sortPhoto.rating == items[index].photo.rating)
        }
        // Reordered again (the site's sort), facts and items stay together.
        let reversed = Array(list.indices.reversed())
        list.permute(by: reversed)
        for index in list.indices {
            #expect(try Self.same(list[index], items[49 - index]))
            #expect(list.facts[index].id == "p\(49 - index)")
        }
    }

    /// A photo with nothing but its id and a local file, and one whose every optional field is set, read back the same.
    @Test func sparseAndFullPhotosReadBackTheSame() throws {
        let sparse = Photo(id: "only-id", image: .file(URL(fileURLWithPath: "/photos/a b/ü.jpg")))
        var full = try Self.item(4).photo
        full.camera = CameraInfo(
            make: "M", model: "X", lens: "L", focalLength: 35.5, aperture: 1.4, exposureTime: 1.0 / 8000, iso: 0)
        full.license = License(name: "Own terms", url: nil)
        full.sourcePage = URL(string: "https://www.flickr.com/photos/x/1")
        full.rating = -1
        let defaults = try ImageSettings.defaults()
        let items = [sparse, full].map { photo in
            GalleryItem(
                photo: photo, displaySize: PixelSize(width: 3, height: 2),
                plan: DerivativePlan(
                    display: PixelSize(width: 3, height: 2), settings: defaults, folder: "photos/\(photo.id)"),
                averageColor: "", placeholderKey: Fixtures.key(photo.id), original: .none)
        }
        let list = try ItemList(items, folder: try Fixtures.temporaryFolder())
        #expect(try Self.same(list[0], items[0]) && list[0].photo.image.filePath == "/photos/a b/ü.jpg")
        #expect(try Self.same(list[1], items[1]) && list[1].photo.camera.iso == 0 && list[1].photo.license?.url == nil)
    }

    @Test func theFileHasNoNameAndItsFolderStaysEmpty() throws {
        let folder = try Fixtures.temporaryFolder()
        let list = try ItemList(try (0..<10).map(Self.item), folder: folder)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(try Self.same(list[9], Self.item(9)))
    }

    /// The manifest's photos wait in a file of their own during the images step (`PhotoList`).
    @Test func photoListsReadBackTheManifestInOrder() throws {
        let folder = try Fixtures.temporaryFolder()
        let photos =
            try (0..<40).map { try Self.item($0).photo } + [
                Photo(id: "bare", image: .file(URL(fileURLWithPath: "/a.jpg")))
            ]
        let list = try PhotoList(photos, folder: folder)
        #expect(try list.photos(in: 0..<list.count) == photos)
        #expect(try list.photo(at: list.count - 1).image.filePath == "/a.jpg")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
        #expect(try PhotoList([], folder: folder).isEmpty)
        #expect(try list.photos(in: 3..<17) == Array(photos[3..<17]) && list.photos(in: 40..<41) == [photos[40]])
        // More than one write buffer's worth: values either side of a flush read back whole.
        let many = (0..<8_000).map { index in
            Photo(
                id: "p\(index)", title: String(repeating: "t", count: index % 300),
                image: .file(URL(fileURLWithPath: "/\(index).jpg")))
        }
        let long = try PhotoList(many, folder: folder)
        #expect(try (0..<8_000).map(long.photo(at:)) == many)
        #expect(try long.photos(in: 0..<8_000) == many)
    }

    @Test func anImagesOnlyBuilderKeepsFactsAndWritesNothing() throws {
        let folder = try Fixtures.temporaryFolder().appendingPathComponent("state")
        var builder = try ItemList.Builder(folder: nil)
        for index in 0..<5 { builder.append(try Self.item(index)) }
        let list = try builder.finish()
        #expect(list.count == 5)
        #expect(list.facts.map(\.id) == (0..<5).map { "p\($0)" })
        #expect(!FileManager.default.fileExists(atPath: folder.path))
    }

    /// The plan and its pages come from the list: a site's pages are the same whether its items
    /// are read back from the file or were never written (the grid, a photo page, the feed, search).
    @Test func pagesShowWhatTheFileHolds() throws {
        let fixture = try AlbumFixture()
        let photos = try (0..<30).map { try Self.item($0).photo }
        let plan = try fixture.plan(photos)
        #expect(plan.items.count == 30)
        let pages = try fixture.render(plan)
        let photoPage = try #require(pages["photos/p6/index.html"])
        #expect(photoPage.contains("Title 6 é&quot;&lt;&gt;"))
        #expect(photoPage.contains("Caption <strong>6</strong>"))
        let trip = try #require(pages["albums/2024/trip/index.html"])
        let shown = AlbumFixture.tileIDs(trip)
        #expect(
            shown.count == 3 && shown.allSatisfy { Int($0.dropFirst()).map { $0.isMultiple(of: 3) } == true },
            "\(shown)")
    }
}
