import Foundation

/// One photo of the manifest, as every provider maps it; every field but `id` and `image` is optional.
public struct Photo: Sendable, Equatable, Codable {
    /// Unique within the site; safe as a path component (see `PhotoID`).
    public var id: String
    public var title: String?
    /// Markdown; rendered with cmark in safe mode, never passed through as HTML.
    public var description: String?
    public var author: String?
    public var authorURL: URL?
    /// When the photo was taken, as written by the source (ISO 8601 or EXIF style).
    public var takenAt: String?
    public var tags: [String]
    /// The album's path, `/`-separated from the top: `2024/Iceland/Day 1`.
    public var album: String?
    public var license: License?
    /// Where the original image is.
    public var image: ImageLocation
    /// Camera and exposure, where the source knows them; EXIF from the file fills the gaps.
    public var camera: CameraInfo
    /// Where the photo was taken; shown only when the site enables it.
    public var location: GeoPoint?
    /// The photo's page at its source (Flickr, 500px), linked from the photo page.
    public var sourcePage: URL?
    /// The star rating 0–5 (-1: rejected), from the source or the file's XMP.
    public var rating: Int?
    /// The title to show when neither the source nor the file's own metadata has one: the folder
    /// source's file name (`IMG 2041 beach`).
    public var fallbackTitle: String?
    /// A Live Photo's clip (`IMG_0001.MOV` beside `IMG_0001.HEIC`): published with the still as
    /// its motion, played on its page; nil for other photos.
    public var motion: ImageLocation?
    /// The album marked `unlisted` that the photo is in (itself or one above it), set by the build
    /// when it gives the photo its token id; kept in the state, so a build from it (`--offline`)
    /// still knows the album is unlisted. Nil for listed photos.
    public var unlistedIn: String?

    public init(
        id: String, title: String? = nil, description: String? = nil, author: String? = nil,
        authorURL: URL? = nil, takenAt: String? = nil, tags: [String] = [], album: String? = nil,
        license: License? = nil, image: ImageLocation, camera: CameraInfo = CameraInfo(),
        location: GeoPoint? = nil, sourcePage: URL? = nil
    ) {
        self.id = id
        self.title = title
        self.description = description
        self.author = author
        self.authorURL = authorURL
        self.takenAt = takenAt
        self.tags = tags
        self.album = album
        self.license = license
        self.image = image
        self.camera = camera
        self.location = location
        self.sourcePage = sourcePage
    }
}

/// A position on Earth in degrees.
public struct GeoPoint: Sendable, Equatable, Codable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// Where an original lives: a local file or a URL.
///
/// Held as text (the path, or the absolute URL), not as a `URL`: a `URL` costs about 460 bytes,
/// and a large site keeps one for every photo all build long. The `URL` is made when it is used.
public struct ImageLocation: Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable { case file, remote }
    private let kind: Kind
    /// The file's path or the URL's absolute text.
    public let description: String

    /// A local file.
    public static func file(_ url: URL) -> ImageLocation { ImageLocation(kind: .file, description: url.path) }

    /// A download.
    public static func remote(_ url: URL) -> ImageLocation {
        ImageLocation(kind: .remote, description: url.absoluteString)
    }

    /// The location as a `URL`, to switch over.
    public enum Resolved { case file(URL), remote(URL) }

    public var resolved: Resolved {
        switch kind {
        case .file: return .file(URL(fileURLWithPath: description, isDirectory: false))
        case .remote: return .remote(URL(string: description) ?? URL(fileURLWithPath: "/"))
        }
    }

    /// The URL of a download; nil for a local file.
    public var remoteURL: URL? {
        if case .remote(let url) = resolved { return url }
        return nil
    }

    /// The path of a local file; nil for a download.
    public var filePath: String? { kind == .file ? description : nil }

}

extension ImageLocation {
    /// A location from its text as `description` gives it, without parsing it again (`ItemCoding`).
    package init(remote: Bool, description: String) {
        self.init(kind: remote ? .remote : .file, description: description)
    }

    /// Whether a location's stored text (`description`, as the state keeps it) names a download:
    /// an http(s) URL. Anything else is a file path.
    package static func isRemote(stored text: String) -> Bool {
        text.hasPrefix("http://") || text.hasPrefix("https://")
    }
}

/// Coded as the enum it was (`{"remote":{"_0":URL}}`), so the state's stored manifests, the
/// metadata digests made from them and `--offline` builds read the same as before.
extension ImageLocation: Codable {
    private enum CodingKeys: String, CodingKey { case file, remote }
    private enum PayloadKeys: String, CodingKey { case _0 }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.file) {
            self = .file(
                try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .file).decode(URL.self, forKey: ._0))
        } else {
            self = .remote(
                try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .remote).decode(URL.self, forKey: ._0))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch resolved {
        case .file(let url):
            var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .file)
            try payload.encode(url, forKey: ._0)
        case .remote(let url):
            var payload = container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .remote)
            try payload.encode(url, forKey: ._0)
        }
    }
}

/// A licence name with an optional link to its text.
public struct License: Sendable, Equatable, Codable {
    public var name: String
    public var url: URL?

    public init(name: String, url: URL? = nil) {
        self.name = name
        self.url = url ?? License.knownURLs[name.uppercased()]
    }

    /// Links for the licences photographers use most, keyed by upper-cased SPDX id.
    package static let knownURLs: [String: URL] = [
        "CC0-1.0": URL(string: "https://creativecommons.org/publicdomain/zero/1.0/")!,
        "CC-BY-4.0": URL(string: "https://creativecommons.org/licenses/by/4.0/")!,
        "CC-BY-SA-4.0": URL(string: "https://creativecommons.org/licenses/by-sa/4.0/")!,
        "CC-BY-NC-4.0": URL(string: "https://creativecommons.org/licenses/by-nc/4.0/")!,
        "CC-BY-ND-4.0": URL(string: "https://creativecommons.org/licenses/by-nd/4.0/")!,
        "CC-BY-NC-SA-4.0": URL(string: "https://creativecommons.org/licenses/by-nc-sa/4.0/")!,
        "CC-BY-NC-ND-4.0": URL(string: "https://creativecommons.org/licenses/by-nc-nd/4.0/")!,
        "LGPL-3": URL(string: "https://www.gnu.org/licenses/lgpl-3.0.html")!,
        "LGPL-3.0": URL(string: "https://www.gnu.org/licenses/lgpl-3.0.html")!,
        "LGPL-2.1+": URL(string: "https://www.gnu.org/licenses/old-licenses/lgpl-2.1.html")!,
        "LGPL-2.1": URL(string: "https://www.gnu.org/licenses/old-licenses/lgpl-2.1.html")!
    ]
}

/// Camera and exposure details; all optional.
public struct CameraInfo: Sendable, Equatable, Codable {
    public var make: String?
    public var model: String?
    public var lens: String?
    /// Focal length in millimetres.
    public var focalLength: Double?
    /// The f-number, such as 2.8.
    public var aperture: Double?
    /// Exposure time in seconds.
    public var exposureTime: Double?
    public var iso: Int?

    public init(
        make: String? = nil, model: String? = nil, lens: String? = nil, focalLength: Double? = nil,
        aperture: Double? = nil, exposureTime: Double? = nil, iso: Int? = nil
    ) {
        self.make = make
        self.model = model
        self.lens = lens
        self.focalLength = focalLength
        self.aperture = aperture
        self.exposureTime = exposureTime
        self.iso = iso
    }

    /// Fills each field this value lacks from `other`; the source's own values win.
    public func filling(from other: CameraInfo) -> CameraInfo {
        CameraInfo(
            make: make ?? other.make, model: model ?? other.model, lens: lens ?? other.lens,
            focalLength: focalLength ?? other.focalLength, aperture: aperture ?? other.aperture,
            exposureTime: exposureTime ?? other.exposureTime, iso: iso ?? other.iso)
    }
}

/// Rules for photo ids, which become folder names in the output.
public enum PhotoID {
    /// Whether `id` is safe as one path component: 1–100 of `A-Z a-z 0-9 - _ .`, not starting with a dot.
    public static func isValid(_ id: String) -> Bool {
        guard (1...100).contains(id.utf8.count), !id.hasPrefix(".") else { return false }
        return id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                || byte == 0x2d || byte == 0x5f || byte == 0x2e
        }
    }

    /// A valid id made from free text, such as a file path: lower-cased, other characters become `-`.
    public static func slug(_ text: String) -> String {
        var result = ""
        var lastWasDash = true
        for scalar in text.lowercased().unicodeScalars {
            if scalar.isASCII, CharacterSet.alphanumerics.contains(scalar) {
                result.unicodeScalars.append(scalar)
                lastWasDash = false
            } else if !lastWasDash {
                result += "-"
                lastWasDash = true
            }
        }
        while result.hasSuffix("-") { result.removeLast() }
        let trimmed = String(result.prefix(80))
        return trimmed.isEmpty ? "photo" : trimmed
    }
}
