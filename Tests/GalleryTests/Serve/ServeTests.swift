import Foundation
import GalleryServe
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("galleryssg serve")
struct ServeTests {
    /// A built fixture site inside a parent folder that holds a secret the server must never hand out.
    struct ServedSite {
        let site: FixtureSite
        var parent: URL { site.folder }
        var output: URL { site.output }

        static func make() async throws -> ServedSite {
            let site = try FixtureSite.make(
                entries: [
                    ["id": "one", "title": "One", "image": "photos/photo-1.jpg"],
                    ["id": "two", "title": "Two", "image": "photos/photo-2.jpg"]
                ], config: ["images": ["thumbnail": 64, "preview": 120, "widths": []]])
            _ = try await site.build()
            try Data("TOP-SECRET".utf8).write(to: site.folder.appendingPathComponent("secret.txt"))
            try Data("<!doctype html><title>Lost</title><p>No such page.</p>".utf8)
                .write(to: site.output.appendingPathComponent("404.html"))
            // Links that point out of the site: a folder link and a file link.
            try FileManager.default.createSymbolicLink(
                at: site.output.appendingPathComponent("up"), withDestinationURL: site.folder)
            try FileManager.default.createSymbolicLink(
                at: site.output.appendingPathComponent("leak.txt"),
                withDestinationURL: site.folder.appendingPathComponent("secret.txt"))
            return ServedSite(site: site)
        }

        func test(
            liveReload: LiveReload? = nil, _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
        ) async throws {
            let server = PreviewServer(folder: output, liveReload: liveReload, log: { _ in })
            try await Application(router: server.router()).test(.router, body)
        }
    }

    func text(_ response: TestResponse) -> String { String(buffer: response.body) }

    @Test func servesPagesWithTypesETagsAndGzip() async throws {
        let served = try await ServedSite.make()
        let index = try Data(contentsOf: served.output.appendingPathComponent("index.html"))
        try await served.test { client in
            let etag = try await client.execute(uri: "/", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(Data(response.body.readableBytesView) == index)
                return try #require(response.headers[.eTag])
            }
            try await client.execute(uri: "/", method: .get, headers: [.ifNoneMatch: etag]) { response in
                #expect(response.status == .notModified)
                #expect(response.body.readableBytes == 0)
            }
            try await client.execute(uri: "/index.html", method: .get, headers: [.acceptEncoding: "br, gzip;q=0.8"]) {
                response in
                #expect(response.headers[.contentEncoding] == "gzip")
                #expect(response.body.readableBytes < index.count)
                let unzipped = try gunzip(Data(response.body.readableBytesView))
                #expect(unzipped == index)
            }
            try await client.execute(uri: "/index.html", method: .get, headers: [.acceptEncoding: "gzip;q=0"]) {
                response in
                #expect(response.headers[.contentEncoding] == nil)
            }
            try await client.execute(uri: "/", method: .head) { response in
                #expect(response.status == .ok && response.body.readableBytes == 0)
                #expect(response.headers[.contentLength] == String(index.count))
            }
            let css = try #require(
                try FileManager.default.contentsOfDirectory(atPath: served.output.appendingPathComponent("static").path)
                    .first { $0.hasPrefix("style.") && $0.hasSuffix(".css") })
            let types = [
                "/static/\(css)": "text/css; charset=utf-8", "/photos/one/original.jpg": "image/jpeg",
                "/photos/two/original.jpg": "image/jpeg", "/feed.xml": "application/xml; charset=utf-8"
            ]
            for (path, type) in types {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .ok, "\(path)")
                    #expect(response.headers[.contentType] == type, "\(path)")
                }
            }
        }
    }

    @Test func imagesAnswerRangesAndConditionalRequests() async throws {
        let served = try await ServedSite.make()
        let jpeg = try Data(contentsOf: served.output.appendingPathComponent("photos/one/original.jpg"))
        try await served.test { client in
            try await client.execute(uri: "/photos/one/original.jpg", method: .get, headers: [.range: "bytes=10-109"]) {
                response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes 10-109/\(jpeg.count)")
                #expect(Data(response.body.readableBytesView) == jpeg[10...109])
            }
            let etag = try await client.execute(uri: "/photos/one/original.jpg", method: .get) {
                try #require($0.headers[.eTag])
            }
            try await client.execute(uri: "/photos/one/original.jpg", method: .get, headers: [.ifNoneMatch: etag]) {
                response in
                #expect(response.status == .notModified)
            }
        }
    }

    @Test func foldersRedirectAndMissingPagesGetTheSites404() async throws {
        let served = try await ServedSite.make()
        try await served.test { client in
            try await client.execute(uri: "/photos/one", method: .get) { response in
                #expect(response.status == .movedPermanently)
                #expect(response.headers[.location] == "/photos/one/")
            }
            try await client.execute(uri: "/photos/one/", method: .get) { response in
                #expect(response.status == .ok && self.text(response).contains("<h1>One</h1>"))
            }
            try await client.execute(uri: "/no/such/page", method: .get) { response in
                #expect(response.status == .notFound)
                #expect(self.text(response).contains("No such page."))
            }
        }
    }

    /// Requests that try to leave the site folder; none may return the secret beside it.
    static let traversals = [
        "/../secret.txt", "/..%2fsecret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/.%2e/secret.txt",
        "/photos/../../secret.txt", "/photos/%2e%2e/%2e%2e/secret.txt", "/%252e%252e/secret.txt", "/..\\secret.txt",
        "/%5c..%5csecret.txt", "/..%5csecret.txt", "/%c0%ae%c0%ae/secret.txt", "/%00/../secret.txt", "/./../secret.txt",
        "/up/secret.txt", "/leak.txt", "/up/", "/photos/one/../../../secret.txt", "/%2e%2e%2f%2e%2e%2fetc%2fpasswd",
        "/../../../../../../etc/passwd", "//etc/passwd", "/%2fetc%2fpasswd"
    ]

    @Test func traversalAttemptsNeverLeaveTheFolder() async throws {
        #expect(Self.traversals.count >= 15)
        let served = try await ServedSite.make()
        try await served.test { client in
            for path in Self.traversals {
                try await client.execute(uri: path, method: .get) { response in
                    let body = self.text(response)
                    #expect(
                        !body.contains("TOP-SECRET") && !body.contains("root:x:0:0"),
                        "\(path) leaked: \(response.status)")
                    #expect(
                        [.forbidden, .notFound, .badRequest].contains(response.status), "\(path): \(response.status)")
                }
            }
        }
    }

    @Test func liveReloadScriptIsServedButNeverBuilt() async throws {
        let served = try await ServedSite.make()
        try await served.test(liveReload: LiveReload()) { client in
            try await client.execute(uri: "/", method: .get) { response in
                #expect(self.text(response).contains("new EventSource(\"/_galleryssg/events\")"))
                #expect(
                    self.text(response).range(of: "</script>\n</body>") != nil
                        || self.text(response).contains("</script></body>"))
            }
        }
        let onDisk = try String(contentsOf: served.output.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!onDisk.contains("_galleryssg"))
        try await served.test { client in  // without --watch, nothing is injected
            try await client.execute(uri: "/", method: .get) { #expect(!self.text($0).contains("_galleryssg")) }
        }
    }

    @Test func sseMessagesPutEveryLineInADataField() {
        #expect(LiveReload.message(event: "build-error", data: "a\nb") == "event: build-error\ndata: a\ndata: b\n\n")
    }
}

/// Decompresses gzip with the system's `gzip`, independent of the server's zlib code.
func gunzip(_ data: Data) throws -> Data {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-dc"]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    try process.run()
    input.fileHandleForWriting.write(data)
    try input.fileHandleForWriting.close()
    let result = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return result
}
