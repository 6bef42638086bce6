import Foundation
import GalleryConfig
import GalleryFetch
import GalleryModel

/// Maps Flickr API rows (`photos.photo[]` with extras) to `Photo`.
package enum FlickrMapping {
    /// The `url_*` extras, each with its `width_*`/`height_*`.
    static let sizeKeys = [
        "o", "6k", "5k", "4k", "f", "3k", "k", "h", "l", "c", "z", "m", "w", "n", "s", "q", "t", "sq"
    ]

    package static func photo(_ row: JSONValue, licenses: [String: License], album: String?) throws -> Photo {
        guard let id = row["id"]?.text, PhotoID.isValid(id) else {
            throw MappingError(reason: "row without a usable id")
        }
        if row["media"]?.text == "video" {
            throw MappingError(id: id, reason: "a video, not a photo")
        }
        guard row["server"]?.text != "0", let image = largestImage(row) else {
            throw MappingError(
                id: id, reason: "no image URL in the row (no url_* extras, or the photo is still processing)")
        }
        let owner = row["pathalias"]?.text ?? row["owner"]?.text
        let ownerURL = owner.flatMap {
            URL(
                string:
                    "https://www.flickr.com/photos/\($0.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? $0)/"
            )
        }
        let title = row["title"]?.text ?? row["title"]?["_content"]?.text
        let description = (row["description"]?["_content"]?.text ?? row["description"]?.text).map(
            HTMLText.markdown(fromHTML:))
        var takenAt: String?
        if row["datetakenunknown"]?.integer != 1, let taken = row["datetaken"]?.text, taken.count >= 10 {
            let granularity = row["datetakengranularity"]?.integer ?? 0
            takenAt =
                granularity >= 6
                ? String(taken.prefix(4))
                : granularity >= 4
                    ? String(taken.prefix(7))
                    : taken.replacingOccurrences(of: " ", with: "T")
        }
        let tags = (row["tags"]?.text ?? "").split(separator: " ").map(String.init)
        return Photo(
            id: id, title: title.flatMap { UntrustedText.clean($0, max: 300) },
            description: description.flatMap { UntrustedText.clean($0, max: 20_000) },
            author: row["ownername"]?.text.flatMap { UntrustedText.clean($0, max: 200) }, authorURL: ownerURL,
            takenAt: takenAt, tags: Array(tags.prefix(100)), album: album,
            license: row["license"]?.text.flatMap { licenses[$0] }, image: .remote(image),
            location: geoPoint(latitude: row["latitude"], longitude: row["longitude"]),
            sourcePage: ownerURL.flatMap { URL(string: "\($0.absoluteString)\(id)/") })
    }

    /// The largest `url_*` present, by pixel count; by the size order when dimensions are missing.
    static func largestImage(_ row: JSONValue) -> URL? {
        var best: (pixels: Int, rank: Int, url: URL)?
        for (rank, key) in sizeKeys.enumerated() {
            guard let text = row["url_\(key)"]?.text, let url = URL(string: text).map(upgradingToHTTPS), url.host != nil
            else { continue }
            let pixels = (row["width_\(key)"]?.integer ?? 0) * (row["height_\(key)"]?.integer ?? 0)
            if best == nil || pixels > best!.pixels || (pixels == best!.pixels && rank < best!.rank) {
                best = (pixels, rank, url)
            }
        }
        return best?.url
    }

    /// Flickr's licence ids as documented, for when `flickr.photos.licenses.getInfo` cannot be reached.
    package static let builtInLicenses: [String: License] = [
        "0": License(name: "All Rights Reserved"),
        "1": License(name: "CC BY-NC-SA 2.0", url: URL(string: "https://creativecommons.org/licenses/by-nc-sa/2.0/")),
        "2": License(name: "CC BY-NC 2.0", url: URL(string: "https://creativecommons.org/licenses/by-nc/2.0/")),
        "3": License(name: "CC BY-NC-ND 2.0", url: URL(string: "https://creativecommons.org/licenses/by-nc-nd/2.0/")),
        "4": License(name: "CC BY 2.0", url: URL(string: "https://creativecommons.org/licenses/by/2.0/")),
        "5": License(name: "CC BY-SA 2.0", url: URL(string: "https://creativecommons.org/licenses/by-sa/2.0/")),
        "6": License(name: "CC BY-ND 2.0", url: URL(string: "https://creativecommons.org/licenses/by-nd/2.0/")),
        "7": License(
            name: "No known copyright restrictions", url: URL(string: "https://www.flickr.com/commons/usage/")),
        "8": License(name: "United States Government Work", url: URL(string: "http://www.usa.gov/copyright.shtml")),
        "9": License(name: "CC0 1.0", url: URL(string: "https://creativecommons.org/publicdomain/zero/1.0/")),
        "10": License(
            name: "Public Domain Mark 1.0", url: URL(string: "https://creativecommons.org/publicdomain/mark/1.0/"))
    ]
}

/// The key-less public feed, `photos_public.gne`: 20 recent photos by tags or user id, no paging.
struct FlickrFeed {
    let source: FlickrSource
    let downloader: Downloader

    func fetch() async throws -> Manifest {
        var query = source.params
        query["format"] = "json"
        query["nojsoncallback"] = "1"
        let url = RemoteAPI.url(source.endpoint, query: RemoteAPI.sorted(query))
        let body = try await RemoteAPI.json(downloader, url, service: "flickr feed", endpoint: source.endpoint)
        guard let items = body["items"]?.array else {
            throw ProviderError(
                .malformed, "flickr feed: the answer has no \"items\" list; check source.endpoint")
        }
        var collector = ManifestCollector(limit: source.limit)
        for (index, item) in items.enumerated() {
            collector.add(Result { try photo(item) }, position: "items[\(index)]")
        }
        return collector.manifest
    }

    private func photo(_ item: JSONValue) throws -> Photo {
        let link = item["link"]?.text.flatMap(URL.init(string:))
        guard let id = link?.pathComponents.last(where: { Int($0) != nil }), PhotoID.isValid(id) else {
            throw MappingError(reason: "item without a photo link to take its id from")
        }
        // media.m is the 240 px "_m" size; "_b" is the 1024 px size of the same photo.
        guard let small = item["media"]?["m"]?.text,
            let image = URL(string: small.replacingOccurrences(of: "_m.", with: "_b.")).map(upgradingToHTTPS),
            image.host != nil
        else {
            throw MappingError(id: id, reason: "item without media.m")
        }
        // "nobody@flickr.com (\"Name\")"
        var author = item["author"]?.text
        if let value = author, let open = value.firstIndex(of: "("), value.hasSuffix(")") {
            author = String(value[value.index(after: open)..<value.index(before: value.endIndex)])
                .trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        var description = item["description"]?.text ?? ""
        description = description.replacingOccurrences(
            of: #"<p>[^<]*<a [^>]*>[^<]*</a> posted a photo:</p>"#, with: "",
            options: .regularExpression)
        return Photo(
            id: id, title: item["title"]?.text.flatMap { UntrustedText.clean($0, max: 300) },
            description: UntrustedText.clean(HTMLText.markdown(fromHTML: description), max: 20_000),
            author: author.flatMap { UntrustedText.clean($0, max: 200) },
            authorURL: item["author_id"]?.text.flatMap { URL(string: "https://www.flickr.com/photos/\($0)/") },
            // The feed stamps every date_taken with -08:00 whatever the real zone: keep the local time only.
            takenAt: item["date_taken"]?.text.map { String($0.prefix(19)) },
            tags: (item["tags"]?.text ?? "").split(separator: " ").prefix(100).map(String.init),
            image: .remote(image), sourcePage: link)
    }
}
