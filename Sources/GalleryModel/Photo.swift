import Foundation

/// One photo of the manifest, as every provider maps it; every field but `id` and `image` is optional.
package struct Photo: Sendable, Equatable, Codable {
    /// Unique within the site; safe as a path component (see `PhotoID`).
    package var id: String
    package var title: String?
    /// Markdown; rendered with cmark in safe mode, never passed through as HTML.
    package var description: String?
    package var author: String?
    package var authorURL: URL?
    /// When the photo was taken, as written by the source (ISO 8601 or EXIF style).
    package var takenAt: String?
    package var tags: [String]
    /// The album's path, `/`-separated from the top: `2024/Iceland/Day 1`.
    package var album: String?
    package var license: License?
    /// Where the original image is.
    package var image: ImageLocation
    /// Camera and exposure, where the source knows them; EXIF from the file fills the gaps.
    package var camera: CameraInfo
    /// Where the photo was taken; shown only when the site enables it.
    package var location: GeoPoint?
    /// The photo's page at its source (Flickr, 500px), linked from the photo page.
    package var sourcePage: URL?
    /// The star rating 0–5 (-1: rejected), from the source or the file's XMP.
    package var rating: Int?
    /// The title to show when neither the source nor the file's own metadata has one: the folder
    /// source's file name (`IMG 2041 beach`).
    package var fallbackTitle: String?
    /// When the photo was taken, for a file that does not say: Google Takeout's UTC time, which the
    /// local time of the file's EXIF outranks (`TakeoutSidecar`). Nil for other photos.
    package var fallbackTakenAt: String?
    /// A Live Photo's clip (`IMG_0001.MOV` beside `IMG_0001.HEIC`): published with the still as
    /// its motion, played on its page; nil for other photos.
    package var motion: ImageLocation?
    /// The album marked `unlisted` that the photo is in (itself or one above it), set by the build
    /// when it gives the photo its token id; kept in the state, so a build from it (`--offline`)
    /// still knows the album is unlisted. Nil for listed photos.
    package var unlistedIn: String?
    /// The photo's place in its album by hand, lower first (an album's `order` list, a sidecar's
    /// `order` or Hugo's `weight`); photos without one follow in the album's `sort` (`PhotoOrder.manual`).
    package var order: Int?

    package init(
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

/// Where an original lives: a local file or a URL.
///
/// Held as text (the path, or the absolute URL), not as a `URL`: a `URL` costs about 460 bytes,
/// and a large site keeps one for every photo all build long. The `URL` is made when it is used.
package struct ImageLocation: Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable { case file, remote }
    private let kind: Kind
    /// The file's path or the URL's absolute text.
    package let description: String

    /// A local file.
    package static func file(_ url: URL) -> ImageLocation { ImageLocation(kind: .file, description: url.path) }

    /// A download.
    package static func remote(_ url: URL) -> ImageLocation {
        ImageLocation(kind: .remote, description: url.absoluteString)
    }

    /// The location as a `URL`, to switch over.
    package enum Resolved { case file(URL), remote(URL) }

    package var resolved: Resolved {
        switch kind {
        case .file: return .file(URL(fileURLWithPath: description, isDirectory: false))
        case .remote: return .remote(URL(string: description) ?? URL(fileURLWithPath: "/"))
        }
    }

    /// The URL of a download; nil for a local file.
    package var remoteURL: URL? {
        if case .remote(let url) = resolved { return url }
        return nil
    }

    /// The path of a local file; nil for a download.
    package var filePath: String? { kind == .file ? description : nil }

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

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        if container.contains(.file) {
            self = .file(
                try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .file).decode(URL.self, forKey: ._0))
        } else {
            self = .remote(
                try container.nestedContainer(keyedBy: PayloadKeys.self, forKey: .remote).decode(URL.self, forKey: ._0))
        }
    }

    package func encode(to encoder: any Encoder) throws {
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
package struct License: Sendable, Equatable, Codable {
    package var name: String
    package var url: URL?

    package init(name: String, url: URL? = nil) {
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
package struct CameraInfo: Sendable, Equatable, Codable {
    package var make: String?
    package var model: String?
    package var lens: String?
    /// Focal length in millimetres.
    package var focalLength: Double?
    /// The f-number, such as 2.8.
    package var aperture: Double?
    /// Exposure time in seconds.
    package var exposureTime: Double?
    package var iso: Int?

    package init(
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
    package func filling(from other: CameraInfo) -> CameraInfo {
        CameraInfo(
            make: make ?? other.make, model: model ?? other.model, lens: lens ?? other.lens,
            focalLength: focalLength ?? other.focalLength, aperture: aperture ?? other.aperture,
            exposureTime: exposureTime ?? other.exposureTime, iso: iso ?? other.iso)
    }
}

/// Rules for photo ids, which become folder names in the output.
package enum PhotoID {
    /// Whether `id` is safe as one path component: 1–100 of `A-Z a-z 0-9 - _ .`, not starting with a dot.
    package static func isValid(_ id: String) -> Bool {
        guard (1...100).contains(id.utf8.count), !id.hasPrefix(".") else { return false }
        return id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)
                || byte == 0x2d || byte == 0x5f || byte == 0x2e
        }
    }

    /// A valid id made from free text, such as a file path: transliterated to ASCII (`ascii`),
    /// lower-cased, other characters become `-`.
    package static func slug(_ text: String) -> String {
        var result = ""
        var lastWasDash = true
        for scalar in ascii(text).lowercased().unicodeScalars {
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

    /// Latin letters without their accents and other scripts in Latin letters, by ICU's
    /// `Any-Latin; Latin-ASCII` transform: accentué → accentue, Straße → Strasse, Øresund →
    /// Oresund, Москва → Moskva, 海 → hai (Han by its Mandarin reading), ありがとう → arigatou.
    /// Text that is ASCII already is returned as it is, without starting the transform.
    package static func ascii(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        return text.applyingTransform(transliteration, reverse: false) ?? text
    }

    private static let transliteration = StringTransform("Any-Latin; Latin-ASCII")
}
