import Foundation
import GalleryConfig
import GalleryFetch
import GalleryModel

/// Photos from Flickr's REST API (`flickr.interestingness.getList`, `flickr.photos.search`, …),
/// following every page once, or from the key-less public feed (`method: "feed"`).
///
/// The original is the largest `url_*` extra actually present, never a guessed URL. Errors come back
/// as HTTP 200 with `stat: "fail"`; codes 105 and 201 (service unavailable) are retried.
public struct FlickrProvider: PhotoProvider {
    package let source: FlickrSource
    package let downloader: Downloader
    package let credentials: Credentials

    public init(source: FlickrSource, downloader: Downloader, credentials: Credentials) {
        self.source = source
        self.downloader = downloader
        self.credentials = credentials
    }

    public var summary: String { source.isFeed ? "flickr public feed" : "flickr \(source.method)" }

    package static let extras = "description,license,date_upload,date_taken,owner_name,original_format,last_update,geo,tags,"
        + "o_dims,views,media,path_alias,url_sq,url_t,url_s,url_q,url_m,url_n,url_w,url_z,url_c,url_l,url_h,url_k,url_o"

    public func fetchManifest() async throws -> Manifest {
        if source.isFeed { return try await FlickrFeed(source: source, downloader: downloader).fetch() }
        let licenses = await licenseTable()
        var collector = ManifestCollector(limit: source.limit)
        // per_page stays the same on every request: changing it would shift the page offsets.
        let perPage = min(source.perPage, source.limit ?? source.perPage)
        var page = 1
        while !collector.isFull {
            var params = source.params
            params["extras"] = params["extras"] ?? Self.extras
            params["page"] = String(page)
            params["per_page"] = String(perPage)
            let body = try await call(source.method, params)
            let container = body["photos"] ?? body["photoset"]
            let rows = container?["photo"]?.array ?? []
            let album = body["photoset"]?["title"]?.text
            for (index, row) in rows.enumerated() {
                collector.add(Result { try FlickrMapping.photo(row, licenses: licenses, album: album) },
                              position: "page \(page) row \(index + 1)")
            }
            let pages = container?["pages"]?.integer ?? page
            if rows.isEmpty || page >= pages { break }
            page += 1
        }
        return collector.manifest
    }

    /// The licence table from `flickr.photos.licenses.getInfo`; the built-in table if that fails.
    private func licenseTable() async -> [String: License] {
        guard let body = try? await call("flickr.photos.licenses.getInfo", [:]),
              let rows = body["licenses"]?["license"]?.array, !rows.isEmpty else { return FlickrMapping.builtInLicenses }
        var table: [String: License] = [:]
        for row in rows {
            guard let id = row["id"]?.text, let name = row["name"]?.text else { continue }
            table[id] = License(name: name, url: row["url"]?.text.flatMap(URL.init(string:)))
        }
        return table
    }

    /// Calls a REST method and returns the body once `stat` is `ok`.
    /// - Throws: `ProviderError` such as `flickr: Invalid API Key (code 100): check FLICKR_API_KEY`.
    package func call(_ method: String, _ params: [String: String]) async throws -> JSONValue {
        var query = params
        query["method"] = method
        query["api_key"] = source.apiKey ?? ""
        query["format"] = "json"
        query["nojsoncallback"] = "1"
        let url = RemoteAPI.url(source.endpoint, query: RemoteAPI.sorted(query))
        let settings = downloader.transport.settings
        let policy = RetryPolicy(retries: settings.retries, baseDelay: settings.retryBaseDelay)
        do {
            return try await policy.run {
                let body = try await RemoteAPI.json(downloader, url, service: "flickr", endpoint: source.endpoint)
                guard body["stat"]?.text == "fail" else { return body }
                let code = body["code"]?.integer ?? 0
                let message = body["message"]?.text ?? "unknown error"
                if code == 105 || code == 201 {
                    throw FetchError(url: source.endpoint, "\(message) (code \(code))", kind: .transient)
                }
                let hint = code == 100 ? ": check \(credentials.hint("source.apiKey"))" : ""
                throw ProviderError(description: "flickr: \(message) (code \(code))\(hint)")
            }
        } catch let error as FetchError {
            throw ProviderError(description: "flickr: \(error.reason), still after \(settings.retries + 1) attempts; try again later")
        }
    }
}

/// Collects mapped photos in order, de-duplicating by id and stopping at `source.limit`.
package struct ManifestCollector {
    package let limit: Int?
    package private(set) var manifest = Manifest(photos: [])
    private var seen: Set<String> = []

    package init(limit: Int?) {
        self.limit = limit
    }

    package var remaining: Int? { limit.map { max(0, $0 - manifest.photos.count) } }
    package var isFull: Bool { remaining == 0 }

    /// Adds a mapped photo, or the reason it could not be mapped; repeats of an id are dropped silently,
    /// since feeds that page over a changing list legitimately repeat rows.
    package mutating func add(_ result: Result<Photo, Error>, position: String) {
        guard !isFull else { return }
        switch result {
        case .success(let photo):
            if seen.insert(photo.id).inserted { manifest.photos.append(photo) }
        case .failure(let error as MappingError):
            manifest.issues.append(ManifestIssue(item: error.id ?? position, location: error.location, reason: error.reason))
        case .failure(let error):
            manifest.issues.append(ManifestIssue(item: position, location: nil, reason: "\(error)"))
        }
    }
}

/// One feed row that cannot become a photo.
package struct MappingError: Error {
    package var id: String?
    package var location: String?
    package var reason: String
}
