import Foundation
import GalleryConfig
import GalleryFetch
import GalleryModel

/// Photos from Flickr's REST API (`flickr.interestingness.getList`, `flickr.photos.search`, …),
/// following every page once, or from the key-less public feed (`method: "feed"`).
///
/// The original is the largest `url_*` extra actually present, never a guessed URL. Errors come back
/// as HTTP 200 with `stat: "fail"`; codes 105 and 201 (service unavailable) are retried.
package struct FlickrProvider: PhotoProvider {
    package let source: FlickrSource
    package let downloader: Downloader
    package let credentials: Credentials

    package init(source: FlickrSource, downloader: Downloader, credentials: Credentials) {
        self.source = source
        self.downloader = downloader
        self.credentials = credentials
    }

    package var summary: String { source.isFeed ? "flickr public feed" : "flickr \(source.method)" }

    package static let extras =
        "description,license,date_upload,date_taken,owner_name,original_format,last_update,geo,tags,"
        + "o_dims,views,media,path_alias,url_sq,url_t,url_s,url_q,url_m,url_n,url_w,url_z,url_c,url_l,url_h,url_k,url_o"

    package func fetchManifest() async throws -> Manifest {
        if source.isFeed { return try await FlickrFeed(source: source, downloader: downloader).fetch() }
        let licenses = await licenseTable()
        // per_page stays the same on every request: changing it would shift the page offsets.
        let perPage = min(source.perPage, source.limit ?? source.perPage)
        return try await ManifestCollector.collect(limit: source.limit) { page, _ in
            var params = source.params
            params["extras"] = params["extras"] ?? Self.extras
            params["page"] = String(page)
            params["per_page"] = String(perPage)
            let body = try await call(source.method, params)
            let container = body["photos"] ?? body["photoset"]
            let album = body["photoset"]?["title"]?.text
            return PhotoPage(
                rows: (container?["photo"]?.array ?? []).map { row in
                    Result { try FlickrMapping.photo(row, licenses: licenses, album: album) }
                }, isLast: page >= container?["pages"]?.integer ?? page, position: { "page \(page) row \($0 + 1)" })
        }
    }

    /// The licence table from `flickr.photos.licenses.getInfo`; the built-in table if that fails.
    private func licenseTable() async -> [String: License] {
        guard let body = try? await call("flickr.photos.licenses.getInfo", [:]),
            let rows = body["licenses"]?["license"]?.array, !rows.isEmpty
        else { return FlickrMapping.builtInLicenses }
        var table: [String: License] = [:]
        for row in rows {
            guard let id = row["id"]?.text, let name = row["name"]?.text else { continue }
            table[id] = License(name: name, url: row["url"]?.text.flatMap(URL.init(string:)))
        }
        return table
    }

    /// Calls a REST method and returns the body once `stat` is `ok`.
    /// - Throws: `ProviderError` such as `flickr: Invalid API Key (code 100): check FLICKR_API_KEY`.
    func call(_ method: String, _ params: [String: String]) async throws -> JSONValue {
        var query = params
        query["method"] = method
        query["api_key"] = source.apiKey ?? ""
        query["format"] = "json"
        query["nojsoncallback"] = "1"
        let url = RemoteAPI.url(source.endpoint, query: RemoteAPI.sorted(query))
        do {
            return try await downloader.retryPolicy.run {
                let body = try await RemoteAPI.json(downloader, url, service: "flickr", endpoint: source.endpoint)
                guard body["stat"]?.text == "fail" else { return body }
                let code = body["code"]?.integer ?? 0
                let message = body["message"]?.text ?? "unknown error"
                if code == 105 || code == 201 {
                    throw FetchError(url: source.endpoint, "\(message) (code \(code))", kind: .transient)
                }
                let hint = code == 100 ? ": check \(credentials.hint("source.apiKey"))" : ""
                throw ProviderError(.refused, "flickr: \(message) (code \(code))\(hint)")
            }
        } catch let error as FetchError {
            throw ProviderError(
                .unavailable,
                "flickr: \(error.reason), still after \(downloader.retryPolicy.retries + 1) attempts; try again later"
            )
        }
    }
}
