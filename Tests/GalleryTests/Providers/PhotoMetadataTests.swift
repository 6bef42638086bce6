import Foundation
import GalleryConfig
import GalleryMetadata
import GalleryModel
import GalleryOutput
import GalleryProviders
import GalleryRender
import Testing

/// `PhotoMetadata.merge`: provider (with sidecars), then XMP, IPTC, EXIF, then the file name.
@Suite("Metadata precedence")
struct PhotoMetadataTests {
    static let image = ImageLocation.file(URL(fileURLWithPath: "/photos/IMG_1001.jpg"))

    static func facts(_ embedded: EmbeddedMetadata, exif: ExifInfo = ExifInfo()) -> OriginalFacts {
        OriginalFacts(format: .jpeg, size: PixelSize(width: 10, height: 10), exif: exif, embedded: embedded)
    }

    static let file = EmbeddedMetadata(
        title: "File title", caption: "File caption", keywords: ["file"], creator: "File Creator",
        rights: "CC-BY-4.0", licenseURL: nil, rating: 2, takenAt: "2020-01-01")

    /// Every field the provider (or its sidecar) sets wins over the file.
    @Test func providerWins() {
        var photo = Photo(
            id: "p", title: "Provider title", description: "Provider *text*", author: "Provider Author",
            takenAt: "2024-01-01", tags: ["provider"], license: License(name: "CC0-1.0"), image: Self.image)
        photo.rating = 5
        photo.fallbackTitle = "IMG 1001"
        let merged = PhotoMetadata.merge(photo: photo, facts: Self.facts(Self.file))
        #expect(merged.title == "Provider title")
        #expect(merged.description == "Provider *text*")
        #expect(merged.author == "Provider Author")
        #expect(merged.tags == ["provider"])
        #expect(merged.license == License(name: "CC0-1.0"))
        #expect(merged.takenAt == "2024-01-01")
        #expect(merged.rating == 5)
    }

    /// The file fills every gap; its caption is escaped so it shows literally.
    @Test func fileFillsGaps() {
        var photo = Photo(id: "p", image: Self.image)
        photo.fallbackTitle = "IMG 1001"
        var file = Self.file
        file.caption = "Not *bold* <b>x</b>"
        let merged = PhotoMetadata.merge(photo: photo, facts: Self.facts(file))
        #expect(merged.title == "File title")
        #expect(merged.description.map(Markdown.html) == "<p>Not *bold* &lt;b&gt;x&lt;/b&gt;</p>\n")
        #expect(merged.author == "File Creator")
        #expect(merged.tags == ["file"])
        #expect(
            merged.license
                == License(name: "CC-BY-4.0", url: URL(string: "https://creativecommons.org/licenses/by/4.0/")))
        #expect(merged.takenAt == "2020-01-01")
        #expect(merged.rating == 2)
    }

    /// The file name is the last resort for the title; EXIF's own date and camera still fill in.
    @Test func fileNameAndEXIFLast() {
        var photo = Photo(id: "p", image: Self.image, camera: CameraInfo(make: "Source make"))
        photo.fallbackTitle = "IMG 1001"
        var exif = ExifInfo()
        exif.takenAt = "2015-03-14T10:22:01"
        exif.camera = CameraInfo(make: "Exif make", model: "Exif model")
        exif.location = GeoPoint(latitude: 1, longitude: 2)
        let merged = PhotoMetadata.merge(photo: photo, facts: Self.facts(EmbeddedMetadata(), exif: exif))
        #expect(merged.title == "IMG 1001")
        #expect(merged.description == nil && merged.author == nil && merged.license == nil && merged.tags.isEmpty)
        #expect(merged.takenAt == "2015-03-14T10:22:01")
        #expect(merged.camera == CameraInfo(make: "Source make", model: "Exif model"))
        #expect(merged.location == GeoPoint(latitude: 1, longitude: 2))
    }

    @Test func licenceFromALinkAlone() throws {
        let url = try #require(URL(string: "https://creativecommons.org/licenses/by-nc/4.0/"))
        #expect(PhotoMetadata.license(rights: nil, url: url) == License(name: "CC-BY-NC-4.0", url: url))
        let other = try #require(URL(string: "https://example.com/terms"))
        #expect(
            PhotoMetadata.license(rights: nil, url: other) == License(name: "https://example.com/terms", url: other))
        #expect(PhotoMetadata.license(rights: nil, url: nil) == nil)
    }

    @Test func markdownLiteralKeepsTextAndLineBreaks() {
        let text = "# Not a heading\n1. not a list\n    not code\n\nNew paragraph with `tick` and \\ and _under_"
        let html = Markdown.html(PhotoMetadata.markdownLiteral(text))
        #expect(
            html
                == "<p># Not a heading<br />\n1. not a list<br />\nnot code</p>\n<p>New paragraph with `tick` and \\ and _under_</p>\n"
        )
    }
}
