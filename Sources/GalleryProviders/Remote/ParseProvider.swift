import Foundation
import GalleryConfig
import GalleryFetch
import GalleryModel

/// Rows of a Parse Server class: `GET {endpoint}/classes/{className}` with `limit`/`skip`/`order`/`count=1`
/// and the `X-Parse-Application-Id` / `X-Parse-REST-API-Key` headers.
///
/// Pages are requested in a stable order (`createdAt,objectId` by default) and rows are
/// de-duplicated by `objectId`, so an edit between two page requests cannot drop or repeat a photo.
package struct ParseProvider: PhotoProvider {
    package let source: ParseSource
    package let downloader: Downloader
    package let credentials: Credentials

    package init(source: ParseSource, downloader: Downloader, credentials: Credentials) {
        self.source = source
        self.downloader = downloader
        self.credentials = credentials
    }

    package var summary: String { "parse class \(source.className)" }

    package func fetchManifest() async throws -> Manifest {
        var total: Int?  // asked for on the first request only
        return try await ManifestCollector.collect(limit: source.limit) { _, skip in
            let body = try await call(skip: skip, limit: source.perPage, count: total == nil)
            total = total ?? body["count"]?.integer
            let rows = body["results"]?.array ?? []
            return PhotoPage(
                rows: rows.map { row in Result { try ParseMapping(columns: source.columns).photo(row) } },
                isLast: rows.count < source.perPage || total.map { skip + rows.count >= $0 } == true,
                position: { "results[\(skip + $0)]" })
        }
    }

    private func call(skip: Int, limit: Int, count: Bool) async throws -> JSONValue {
        var items = [
            URLQueryItem(name: "limit", value: String(limit)), URLQueryItem(name: "skip", value: String(skip)),
            URLQueryItem(name: "order", value: source.order)
        ]
        if count { items.append(URLQueryItem(name: "count", value: "1")) }
        if let constraint = source.whereJSON { items.append(URLQueryItem(name: "where", value: constraint)) }
        let url = RemoteAPI.url(source.endpoint, path: "classes/\(source.className)", query: items)
        var headers = [("X-Parse-Application-Id", source.applicationId)]
        if let key = source.restApiKey { headers.append(("X-Parse-REST-API-Key", key)) }
        let response = try await RemoteAPI.send(
            downloader, url, headers: headers, service: "parse",
            endpoint: source.endpoint)
        guard (200..<300).contains(response.status) else { throw error(for: response) }
        return try RemoteAPI.parse(response, service: "parse")
    }

    private func error(for response: HTTPTransport.Response) -> ProviderError {
        guard let body = try? JSONValue.parseLenient(response.body) else {
            let start = String(decoding: response.body.prefix(60), as: UTF8.self).replacingOccurrences(
                of: "\n", with: " ")
            return ProviderError(
                .malformed,
                "parse: HTTP \(response.status), and the body is not JSON "
                    + "(\(JSONValue.string(start).quoted)); check source.endpoint, which should end with the "
                    + "server's mount path, e.g. https://example.com/parse")
        }
        let message = body["error"]?.text ?? "no details"
        if response.status == 401 || response.status == 403 {
            let variables = [credentials.variables["source.applicationId"], credentials.variables["source.restApiKey"]]
                .compactMap { $0 }
            let hint = variables.isEmpty ? "" : " (\(variables.joined(separator: ", ")))"
            return ProviderError(
                .refused, "parse: \(response.status) \(message): check applicationId/restApiKey\(hint)")
        }
        let code = body["code"]?.integer.map { " (code \($0))" } ?? ""
        let hint = body["code"]?.integer == 103 || response.status == 404 ? ": check source.className" : ""
        return ProviderError(
            response.status >= 500 ? .unavailable : .refused, "parse: \(response.status) \(message)\(code)\(hint)")
    }
}

/// Maps a schemaless Parse row to `Photo` through the configured column names.
package struct ParseMapping {
    package let columns: [String: String]

    package func photo(_ row: JSONValue) throws -> Photo {
        guard let id = row["objectId"]?.text, PhotoID.isValid(id) else {
            throw MappingError(reason: "row without an objectId")
        }
        let imageColumn = columns["image"] ?? "image"
        let imageText = value(row, "image") ?? value(row, "thumbnail")
        guard let imageText else {
            throw MappingError(
                id: id, reason: "no image: column \"\(imageColumn)\" is missing or empty (set source.columns.image)")
        }
        guard let image = URL(string: imageText), let scheme = image.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            image.host != nil
        else {
            throw MappingError(
                id: id, location: imageText, reason: "column \"\(imageColumn)\" does not hold an http(s) URL")
        }
        var title = value(row, "title")
        if let name = title, FolderListing.photoExtensions.contains((name as NSString).pathExtension.lowercased()) {
            title = FolderProvider.title(fromFileName: (name as NSString).deletingPathExtension)
        }
        var tags: [String] = []
        if let column = columns["tags"], let field = row[column] {
            let items =
                field.array?.compactMap(\.text) ?? field.text.map { $0.split(separator: ",").map(String.init) } ?? []
            for tag in items.compactMap({ UntrustedText.clean($0, max: 100) }) where !tags.contains(tag) {
                tags.append(tag)
            }
        }
        let clean = { (text: String?, max: Int) in text.flatMap { UntrustedText.clean($0, max: max) } }
        return Photo(
            id: id, title: clean(title, 300), description: clean(value(row, "description"), 20_000),
            author: clean(value(row, "author"), 200), takenAt: value(row, "takenAt") ?? row["createdAt"]?.text,
            tags: Array(tags.prefix(100)), album: clean(value(row, "album"), 200),
            license: clean(value(row, "license"), 200).map { License(name: $0) }, image: .remote(image))
    }

    /// A column's value as text: a string, a number, a `File` (its url) or a `Date` (its iso).
    private func value(_ row: JSONValue, _ field: String) -> String? {
        guard let column = columns[field], let cell = row[column] else { return nil }
        switch cell["__type"]?.text {
        case "File": return cell["url"]?.text
        case "Date": return cell["iso"]?.text
        default: return cell.text
        }
    }

    package init(columns: [String: String]) {
        self.columns = columns
    }
}
