import Foundation
import GalleryConfig
import GalleryFetch
import GalleryModel

/// Photos from a 500px API v1 stream: `GET photos?feature=…` with `page`/`rpp` and `image_size[]`.
///
/// Streams are cached server-side, so consecutive pages can overlap: rows are de-duplicated by id.
/// The original is the largest of the returned `images[]`, picked by size id, never built by hand.
package struct FiveHundredPxProvider: PhotoProvider {
    package let source: FiveHundredPxSource
    package let downloader: Downloader
    package let credentials: Credentials

    package init(source: FiveHundredPxSource, downloader: Downloader, credentials: Credentials) {
        self.source = source
        self.downloader = downloader
        self.credentials = credentials
    }

    package var summary: String { "500px \(source.feature)" }

    package func fetchManifest() async throws -> Manifest {
        // rpp stays the same on every request: changing it would shift the page offsets.
        let perPage = min(source.perPage, source.limit ?? source.perPage)
        return try await ManifestCollector.collect(limit: source.limit) { page, _ in
            let body = try await call(page: page, perPage: perPage)
            return PhotoPage(
                rows: (body["photos"]?.array ?? []).map { row in Result { try FiveHundredPxMapping.photo(row) } },
                isLast: body["current_page"]?.integer ?? page >= body["total_pages"]?.integer ?? page,
                position: { "page \(page) photo \($0 + 1)" })
        }
    }

    private func call(page: Int, perPage: Int) async throws -> JSONValue {
        var items = RemoteAPI.sorted(source.params)
        items += [
            URLQueryItem(name: "feature", value: source.feature),
            URLQueryItem(name: "consumer_key", value: source.consumerKey),
            URLQueryItem(name: "page", value: String(page)), URLQueryItem(name: "rpp", value: String(perPage)),
            URLQueryItem(name: "tags", value: "1")
        ]
        items += source.imageSizes.map { URLQueryItem(name: "image_size[]", value: String($0)) }
        let url = RemoteAPI.url(source.endpoint, path: "photos", query: items)
        let response = try await RemoteAPI.send(downloader, url, service: "500px", endpoint: source.endpoint)
        let body = try? JSONValue.parseLenient(response.body)
        guard (200..<300).contains(response.status) else {
            let message = body?["error"]?.text ?? body?["message"]?.text ?? "no details"
            let hint =
                [401, 403].contains(response.status)
                ? ": check \(credentials.hint("source.consumerKey"))"
                : response.status == 404 ? ": check source.endpoint and source.feature" : ""
            throw ProviderError(
                response.status >= 500 ? .unavailable : .refused, "500px: \(response.status) \(message)\(hint)")
        }
        guard let body else { return try RemoteAPI.parse(response, service: "500px") }
        return body
    }
}

/// Maps 500px v1 photo objects to `Photo`.
package enum FiveHundredPxMapping {
    /// Long edge of each documented `image_size` id; unknown ids (such as 22) rank below them all.
    static let longEdges: [Int: Int] = [
        1: 70, 2: 140, 3: 280, 100: 100, 200: 200, 440: 440, 600: 600, 4: 900, 5: 1170,
        6: 1080, 20: 300, 21: 600, 30: 256, 31: 450, 1080: 1080, 1600: 1600, 2048: 2048
    ]

    package static let licenses: [Int: License] = [
        0: License(name: "500px License"),
        1: License(name: "CC BY-NC 3.0", url: URL(string: "https://creativecommons.org/licenses/by-nc/3.0/")),
        2: License(name: "CC BY-NC-ND 3.0", url: URL(string: "https://creativecommons.org/licenses/by-nc-nd/3.0/")),
        3: License(name: "CC BY-NC-SA 3.0", url: URL(string: "https://creativecommons.org/licenses/by-nc-sa/3.0/")),
        4: License(name: "CC BY 3.0", url: URL(string: "https://creativecommons.org/licenses/by/3.0/")),
        5: License(name: "CC BY-ND 3.0", url: URL(string: "https://creativecommons.org/licenses/by-nd/3.0/")),
        6: License(name: "CC BY-SA 3.0", url: URL(string: "https://creativecommons.org/licenses/by-sa/3.0/")),
        7: License(
            name: "Public Domain Mark 1.0", url: URL(string: "https://creativecommons.org/publicdomain/mark/1.0/")),
        8: License(name: "CC0 1.0", url: URL(string: "https://creativecommons.org/publicdomain/zero/1.0/"))
    ]

    package static func photo(_ row: JSONValue) throws -> Photo {
        let photo = row["photo"] ?? row  // the detail endpoint wraps the object
        guard let id = photo["id"]?.text, PhotoID.isValid(id) else {
            throw MappingError(reason: "photo without a usable id")
        }
        guard let image = largestImage(photo) else {
            throw MappingError(id: id, reason: "no images[].https_url (ask for sizes with source.imageSizes)")
        }
        let user = photo["user"]
        let fullname = user?["fullname"]?.text?.split(separator: " ").joined(separator: " ")
        let username = user?["username"]?.text
        let clean = { (text: String?, max: Int) in text.flatMap { UntrustedText.clean($0, max: max) } }
        let camera = CameraInfo(
            model: clean(meaningful(photo["camera"]), 100), lens: clean(meaningful(photo["lens"]), 200),
            focalLength: positive(photo["focal_length"]), aperture: positive(photo["aperture"]),
            exposureTime: photo["shutter_speed"]?.text.flatMap(exposure), iso: positive(photo["iso"]).map { Int($0) })
        var tags: [String] = []
        for tag in photo["tags"]?.array ?? [] {
            if let text = clean(tag.text, 100), !tags.contains(text) { tags.append(text) }
        }
        return Photo(
            id: id, title: clean(photo["name"]?.text, 300),
            description: clean(photo["description"]?.text.map(HTMLText.markdown(fromHTML:)), 20_000),
            author: clean(fullname ?? username, 200),
            authorURL: username.flatMap {
                URL(
                    string:
                        "https://500px.com/\($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0)")
            },
            takenAt: photo["taken_at"]?.text, tags: Array(tags.prefix(100)),
            license: photo["license_type"]?.integer.flatMap { licenses[$0] }, image: .remote(image), camera: camera,
            location: geoPoint(latitude: photo["latitude"], longitude: photo["longitude"]),
            sourcePage: photo["url"]?.text.flatMap { $0.hasPrefix("/") ? URL(string: "https://500px.com\($0)") : nil })
    }

    /// The largest `images[]` entry with an https URL, by documented size; falls back to `image_url`.
    static func largestImage(_ photo: JSONValue) -> URL? {
        var best: (edge: Int, url: URL)?
        for image in photo["images"]?.array ?? [] {
            guard let text = image["https_url"]?.text ?? image["url"]?.text,
                let url = URL(string: text).map(upgradingToHTTPS),
                url.host != nil
            else { continue }
            let edge = image["size"]?.integer.flatMap { longEdges[$0] } ?? 0
            if best == nil || edge > best!.edge { best = (edge, url) }
        }
        if let best { return best.url }
        let legacy = photo["image_url"]?.array?.last?.text ?? photo["image_url"]?.text
        return legacy.flatMap(URL.init(string:)).flatMap { $0.host == nil ? nil : $0 }
    }

    /// EXIF strings that carry no information (`""`, `"0"`) become nil.
    private static func meaningful(_ value: JSONValue?) -> String? {
        guard let text = value?.text, text != "0" else { return nil }
        return text
    }

    private static func positive(_ value: JSONValue?) -> Double? {
        value?.number.flatMap { $0 > 0 ? $0 : nil }
    }

    /// `"1/640"` or `"20"` seconds.
    package static func exposure(_ text: String) -> Double? {
        let parts = text.split(separator: "/")
        if parts.count == 2, let numerator = Double(parts[0]), let denominator = Double(parts[1]), denominator > 0,
            numerator > 0
        {
            return numerator / denominator
        }
        return Double(text).flatMap { $0 > 0 ? $0 : nil }
    }
}
