import Foundation
import GalleryModel

/// What the folder source's sidecar files say about one photo: `NAME.md` (or `NAME.jpg.md`) with
/// YAML front matter and a Markdown description, and `NAME.xmp` (or `NAME.jpg.xmp`, darktable's
/// style) as written by Lightroom, darktable or digiKam.
///
/// Sidecars rank below the provider and above the file's own metadata (see `PhotoMetadata`);
/// within them, a field in the `.md` file wins over the same field in the `.xmp` file.
package struct PhotoSidecar: Sendable, Equatable {
    package var title: String?
    /// Markdown: the `.md` body as written, or the `.xmp` caption escaped to show literally.
    package var description: String?
    package var tags: [String] = []
    package var takenAt: String?
    package var author: String?
    package var license: License?
    package var rating: Int?
    /// `hidden: true` (Hugo: `draft: true`, Pelican: `Status: draft`) in the front matter: the folder
    /// source leaves the photo out.
    package var hidden = false
    /// `order` (Hugo: `weight`): the photo's place in its album by hand, lower first; the folder source
    /// ranks it after the photos the album's own `order` list names (docs/library.md, "Manual order").
    package var order: Int?
    /// What the `.md` file holds that galleryssg left out (unknown keys): published anyway, each
    /// reported as a warning, a failure only under `build --strict`.
    package var warnings: [MetadataFileError] = []

    package init() {}

    /// The front-matter keys a photo's `.md` sidecar may use (`keywords` and `date` are aliases;
    /// `description` stands in for a missing body). Other tools' keys are read as these (`ForeignKeys`).
    package static let keys = [
        "title", "description", "tags", "keywords", "date", "takenAt", "hidden", "author", "license", "rating",
        "order", "status"
    ]

    /// Reads whichever sidecars are given; the `.md` file's fields win.
    /// - Throws: `MetadataFileError` naming the file (and line) of a sidecar that is unreadable,
    ///   over 1 MiB, malformed, or has a wrong value. Unknown keys are `warnings`, not errors.
    package static func read(markdown: URL?, xmp: URL?) throws -> PhotoSidecar {
        var sidecar = PhotoSidecar()
        if let xmp { sidecar = try readXMP(xmp) }
        if let markdown { try sidecar.overlay(FrontMatter.read(markdown)) }
        return sidecar
    }

    /// Fills the fields `photo` lacks (the provider's own values win); tags only when it has none.
    package func apply(to photo: inout Photo) {
        photo.title = photo.title ?? title
        photo.description = photo.description ?? description
        photo.tags = photo.tags.isEmpty ? tags : photo.tags
        photo.takenAt = photo.takenAt ?? takenAt
        photo.author = photo.author ?? author
        photo.license = photo.license ?? license
        photo.rating = photo.rating ?? rating
    }

    private static func readXMP(_ url: URL) throws -> PhotoSidecar {
        let data = try MetadataFileError.contents(
            of: url, maxBytes: XMPReader.maxPacketBytes, kinds: "XMP sidecars")
        let embedded: EmbeddedMetadata
        do {
            embedded = try XMPReader.read(data).cleaned()
        } catch {
            throw MetadataFileError(
                .malformed, file: url.path, line: nil, reason: "is not a readable XMP packet (RDF/XML)")
        }
        var sidecar = PhotoSidecar()
        sidecar.title = embedded.title
        sidecar.description = embedded.caption.map(PhotoMetadata.markdownLiteral)
        sidecar.tags = embedded.keywords
        sidecar.takenAt = embedded.takenAt
        sidecar.author = embedded.creator
        sidecar.license = PhotoMetadata.license(rights: embedded.rights, url: embedded.licenseURL)
        sidecar.rating = embedded.rating
        return sidecar
    }

    /// Lays the `.md` file's fields over these.
    private mutating func overlay(_ written: FrontMatter) throws {
        let matter = written.normalised(for: .photoSidecar, known: Self.keys)
        warnings = matter.unknownKeys(Self.keys)
        title = try matter.string("title", max: EmbeddedMetadata.maxTitle) ?? title
        description =
            try matter.body ?? matter.string("description", max: EmbeddedMetadata.maxCaption) ?? description
        tags =
            try matter.list("tags", "keywords", max: EmbeddedMetadata.maxKeyword, count: EmbeddedMetadata.maxKeywords)
            ?? tags
        if let date = try matter.string("date", "takenAt", max: 40) {
            guard let iso = EmbeddedMetadata.isoDate(date) else {
                throw matter.failure(
                    matter.fields["date"] != nil ? "date" : "takenAt",
                    "\"\(date)\" is not a date; write 2024-06-01 or 2024-06-01T10:20:00")
            }
            takenAt = iso
        }
        hidden = try matter.bool("hidden") ?? hidden
        if let status = try matter.status(), status != .published { hidden = true }
        author = try matter.string("author", max: EmbeddedMetadata.maxName) ?? author
        license = try matter.string("license", max: EmbeddedMetadata.maxName).map { License(name: $0) } ?? license
        if let text = try matter.string("rating", max: 10) {
            guard let value = Int(text), (-1...5).contains(value) else {
                throw matter.failure("rating", "rating \"\(text)\" must be a whole number from -1 (rejected) to 5")
            }
            rating = value
        }
        order = try matter.integer("order")
    }
}
