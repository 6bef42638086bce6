import Foundation
import GalleryModel
import Hummingbird

/// Serves the site folder in front of Hummingbird's `FileMiddleware`.
///
/// Every path is checked by `SiteFiles` first. Text files (HTML, CSS, JS, XML, JSON, SVG, text)
/// are answered here: small enough to read whole, so they can get a content ETag, gzip, and in
/// watch mode the live-reload script. Everything else, and any request with a `Range` header, goes
/// on to `FileMiddleware`, which streams the file and answers ETag, `If-None-Match` and ranges.
/// A missing file gets the site's own `404.html` with status 404.
package struct SiteMiddleware<Context: RequestContext>: RouterMiddleware {
    package let files: SiteFiles
    package let injectLiveReload: Bool

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        guard request.method == .get || request.method == .head, request.uri.path != LiveReload.eventsPath else {
            return try await next(request, context)
        }
        switch files.lookup(request.uri.path) {
        case .forbidden:
            return plain(.forbidden, "403 Forbidden: that path is outside the site folder.\n")
        case .redirect(let location):
            return Response(status: .movedPermanently, headers: [.location: location])
        case .missing:
            if case .file(let page) = files.lookup("/404.html") { return try text(page, request, status: .notFound) }
            return plain(.notFound, "404 Not Found\n")
        case .file(let url):
            if TextFiles.extensions.contains(url.pathExtension.lowercased()) && request.headers[.range] == nil {
                return try text(url, request, status: .ok)
            }
            var response = try await next(request, context)
            // FileMiddleware sends no type for an extension its table lacks, such as AVIF's.
            if response.headers[.contentType] == nil { response.headers[.contentType] = Self.mediaType(url) }
            return response
        }
    }

    private func plain(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(
            status: status, headers: [.contentType: "text/plain; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    private func text(_ url: URL, _ request: Request, status: HTTPResponse.Status) throws -> Response {
        var data = try Data(contentsOf: url)
        if injectLiveReload && ["html", "htm"].contains(url.pathExtension.lowercased()) {
            data = LiveReload.inject(into: data)
        }
        let etag = "\"\(String(Self.fnv1a(data), radix: 36))-\(data.count)\""
        var headers: HTTPFields = [
            .contentType: Self.mediaType(url), .eTag: etag, .cacheControl: "no-cache", .vary: "Accept-Encoding"
        ]
        if status == .ok, let match = request.headers[.ifNoneMatch],
            match == "*"
                || match.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag })
        {
            return Response(status: .notModified, headers: headers)
        }
        var body = data
        if data.count >= 256, Self.acceptsGzip(request.headers[.acceptEncoding]), let compressed = Zlib.gzip(data) {
            body = compressed
            headers[.contentEncoding] = "gzip"
        }
        headers[.contentLength] = String(body.count)
        let payload: ResponseBody = request.method == .head ? .init() : .init(byteBuffer: ByteBuffer(bytes: body))
        return Response(status: status, headers: headers, body: payload)
    }

    /// Whether `Accept-Encoding` lists gzip without `q=0`.
    package static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        return header.lowercased().split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            return ["gzip", "*"].contains(parts.first ?? "")
                && !parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "") == "q=0" }
        }
    }

    package static func mediaType(_ url: URL) -> String {
        let ext = url.pathExtension.lowercased()
        // The site's own types as deployed; Hummingbird's table for any other file put in the output.
        let type =
            MediaTypes.byExtension[ext] ?? MediaType.getMediaType(forExtension: ext)?.description ?? MediaTypes.unknown
        return type.hasPrefix("text/") || type.hasSuffix("javascript") || type.hasSuffix("json")
            || type.hasSuffix("xml")
            ? type + "; charset=utf-8" : type
    }

    /// FNV-1a, 64 bit: a cheap content hash for ETags (not for security).
    package static func fnv1a(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325 as UInt64) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

/// The file types `SiteMiddleware` answers itself (read whole, gzipped, live-reload injected).
/// Outside the generic middleware so the set is built once, not on every request.
enum TextFiles {
    static let extensions: Set<String> = [
        "html", "htm", "css", "js", "mjs", "json", "xml", "txt", "svg", "webmanifest", "map"
    ]
}
