import Foundation
import GalleryModel

/// What a Google Takeout JSON file says: a photo's sidecar (`IMG.jpg.json`,
/// `IMG.jpg.supplemental-metadata.json`, matched by `TakeoutNames`) or an album folder's
/// `metadata.json`.
///
/// Takeout's shape, as its files hold it (no schema is published; ExifTool's `Google` JSON tags and
/// the tools that read Takeout agree on these fields):
///
/// ```json
/// {"title": "IMG_2041.jpg", "description": "Harbour at dawn",
///  "photoTakenTime": {"timestamp": "1560154445", "formatted": "Jun 10, 2019, 8:14:05 AM UTC"},
///  "geoData": {"latitude": 64.1466, "longitude": -21.9426, "altitude": 0.0},
///  "geoDataExif": {"latitude": 64.1466, "longitude": -21.9426}, "people": [{"name": "Anna"}],
///  "favorited": true, "url": "https://photos.google.com/photo/…", "googlePhotosOrigin": {…}}
/// ```
///
/// An album's `metadata.json` holds `title`, `description`, `access` and `date` (older exports wrap
/// them in `albumData`). Files are capped at `maxBytes`, decoded by `JSONDecoder`, and every string is
/// cleaned and capped as untrusted; a field of the wrong type is left out. Takeout writes many other
/// keys (`imageViews`, `creationTime`, `photoLastModifiedTime`, `appSource`…): they are not reported.
package struct TakeoutSidecar: Sendable, Equatable {
    /// Which of Takeout's two kinds of file this is.
    package enum Kind: Sendable, Equatable { case photo, album }

    package var kind: Kind
    /// Takeout's `title`: for a photo, nearly always its original file name.
    package var title: String?
    /// Plain text, as Google Photos' info panel holds it.
    package var description: String?
    /// `photoTakenTime` (a photo) or `date` (an album) as UTC, `2019-06-10T08:14:05Z`.
    package var takenAt: String?
    /// `geoData` (the place Google Photos shows, edits included), else `geoDataExif`; 0,0 means none.
    package var location: GeoPoint?
    /// The names of `people`, as Google Photos' face groups are named.
    package var people: [String] = []
    package var favorited = false

    /// The largest Takeout JSON read; Takeout's own are a few KiB.
    package static let maxBytes = 1 << 20

    /// Reads `url` when it is Takeout's; nil when it is JSON of another shape.
    /// - Throws: `MetadataFileError` when the file is unreadable, over `maxBytes` or not JSON.
    package static func read(_ url: URL) throws -> TakeoutSidecar? {
        let data = try MetadataFileError.contents(of: url, maxBytes: maxBytes, kinds: "Google Takeout's JSON files")
        do {
            return try parse(data)
        } catch DecodingError.typeMismatch {
            return nil  // JSON, but an array or a value rather than an object
        } catch {
            throw MetadataFileError(
                .malformed, file: url.path, line: nil,
                reason: "is not JSON; fix or remove it")
        }
    }

    /// Decodes `data`; nil when it is a JSON object of another shape (or no object).
    /// - Throws: `DecodingError` when `data` is not JSON at all.
    package static func parse(_ data: Data) throws -> TakeoutSidecar? {
        let file = try JSONDecoder().decode(TakeoutFile.self, from: data)
        let album = file.albumData.first ?? file
        if file.isPhoto {
            var sidecar = TakeoutSidecar(kind: .photo, file)
            sidecar.takenAt = (file.photoTakenTime ?? file.creationTime)?.utc
            sidecar.location = (file.geoData?.point ?? file.geoDataExif?.point)
            sidecar.people = Array(
                (file.people ?? []).compactMap { $0.name.flatMap { UntrustedText.clean($0, max: 100) } }
                    .reduce(into: [String]()) { names, name in if !names.contains(name) { names.append(name) } }
                    .prefix(EmbeddedMetadata.maxKeywords))
            sidecar.favorited = file.favorited ?? false
            return sidecar
        }
        guard album.isAlbum else { return nil }
        var sidecar = TakeoutSidecar(kind: .album, album)
        sidecar.takenAt = album.date?.utc
        return sidecar
    }

    private init(kind: Kind, _ file: TakeoutFile) {
        self.kind = kind
        title = file.title.flatMap { UntrustedText.clean($0, max: EmbeddedMetadata.maxTitle) }
        description = file.description.flatMap { UntrustedText.clean($0, max: EmbeddedMetadata.maxCaption) }
    }
}

/// The fields of a Takeout JSON file galleryssg reads; each is decoded on its own, so one of another
/// type is left out rather than failing the file.
private struct TakeoutFile: Decodable {
    struct Time: Decodable {
        var timestamp: Double?

        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: Key.self)
            // Takeout writes the seconds as a string ("1560154445"); a number is read too.
            if let text = try? keys.decode(String.self, forKey: Key("timestamp")) {
                timestamp = Double(text)
            } else {
                timestamp = try? keys.decode(Double.self, forKey: Key("timestamp"))
            }
        }

        /// The time in UTC, as `PhotoDate` reads it; nil outside years 1800–9999 or for a zero time.
        var utc: String? {
            guard let timestamp, timestamp.isFinite, timestamp > 0, timestamp < 253_402_300_800 else { return nil }
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(identifier: "UTC")
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.string(from: Date(timeIntervalSince1970: timestamp.rounded(.down)))
        }
    }

    struct Place: Decodable {
        var latitude: Double?
        var longitude: Double?

        /// Nil for Takeout's 0,0 (no place) and for values off the globe.
        var point: GeoPoint? {
            guard let latitude, let longitude, latitude.isFinite, longitude.isFinite,
                abs(latitude) <= 90, abs(longitude) <= 180, latitude != 0 || longitude != 0
            else { return nil }
            return GeoPoint(latitude: latitude, longitude: longitude)
        }
    }

    struct Person: Decodable {
        var name: String?

        init(from decoder: any Decoder) throws {
            name = try? decoder.container(keyedBy: Key.self).decode(String.self, forKey: Key("name"))
        }
    }

    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    var title: String?
    var description: String?
    var photoTakenTime: Time?
    var creationTime: Time?
    var date: Time?
    var geoData: Place?
    var geoDataExif: Place?
    var people: [Person]?
    var favorited: Bool?
    var access: String?
    /// Older exports' album fields, wrapped (an array, as a struct cannot hold itself: none or one).
    var albumData: [TakeoutFile]
    var keys: Set<String>

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        func field<T: Decodable>(_ name: String, _ type: T.Type = T.self) -> T? {
            (try? container.decodeIfPresent(T.self, forKey: Key(name))) ?? nil
        }
        keys = Set(container.allKeys.map(\.stringValue))
        title = field("title")
        description = field("description")
        photoTakenTime = field("photoTakenTime")
        creationTime = field("creationTime")
        date = field("date")
        geoData = field("geoData")
        geoDataExif = field("geoDataExif")
        people = field("people")
        favorited = field("favorited")
        access = field("access")
        albumData = field("albumData", TakeoutFile.self).map { [$0] } ?? []
    }

    /// A photo's sidecar holds when it was taken (or at least the keys only Takeout's photo files have).
    var isPhoto: Bool {
        photoTakenTime != nil || !keys.isDisjoint(with: ["geoDataExif", "imageViews", "googlePhotosOrigin"])
    }

    /// An album's `metadata.json` has a title and Takeout's album keys, and no photo's.
    var isAlbum: Bool { title != nil && (access != nil || date != nil) && !isPhoto }
}
