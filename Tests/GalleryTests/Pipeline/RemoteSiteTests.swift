import Foundation
import GalleryConfig
import GalleryOutput
import GalleryPipeline
import Testing

/// Whole builds from each API, through `site-config.json` with `source.endpoint` on a loopback server.
@Suite("Sites from remote APIs")
struct RemoteSiteTests {
    static let flickrKey = "f1ickr-KEY-never-print-me"

    /// Flickr search (recorded), licence table (recorded), and images; three images are broken on purpose.
    static let api: @Sendable (FixtureServer.Request, URL) async throws -> FixtureServer.Reply = { request, base in
        if request.isImage {
            if request.path.contains("7093101501_2e55ed8fbf_k") {
                return .data(status: 404, body: Data("Not Found".utf8))
            }
            if request.path.contains("7093100113_91cfa14be2_k") {
                return .data(status: 200, contentType: "image/jpeg", body: Data("<html>oops</html>".utf8))
            }
            return try FixtureServer.image(for: request.path)
        }
        switch request.path {
        case "/services/rest/":
            guard request.query["api_key"] == flickrKey else {
                return try FixtureServer.recorded("flickr/error-invalid-api-key-2012.json", base: base)
            }
            if request.query["method"] == "flickr.photos.licenses.getInfo" {
                return try FixtureServer.recorded("flickr/licenses-getinfo-2012.json", base: base)
            }
            return try FixtureServer.recorded("flickr/search-all-url-extras-2012.json", base: base)
        case "/v1/photos": return try FixtureServer.recorded("500px/popular-2019.json", base: base)
        case "/parse/classes/Resource":
            return try FixtureServer.recorded("parse/resource-rows-handmade.json", base: base)
        default: return .data(status: 404, body: Data("Cannot GET \(request.path)".utf8))
        }
    }

    func site(_ source: [String: Any]) throws -> (folder: URL, config: SiteConfig) {
        let folder = try Fixtures.temporaryFolder()
        let settings: [String: Any] = [
            "title": "Remote", "pageSize": 20, "source": source,
            "images": ["thumbnail": 64, "preview": 96, "widths": [80]],
            "network": ["retries": 1, "timeoutSeconds": Fixtures.seconds(5)]
        ]
        let file = folder.appendingPathComponent("site-config.json")
        try JSONSerialization.data(withJSONObject: settings).write(to: file)
        return (
            folder,
            try SiteConfig.load(
                from: file,
                environment: [
                    "FLICKR_API_KEY": Self.flickrKey, "PX": "px-key-1234",
                    "APP": "app-id-1234", "REST": "rest-key-1234"
                ])
        )
    }

    @Test func flickrSiteHasEveryServedPhotoAndNeverTheKey() async throws {
        let lines = LineLog()
        let (folder, report) = try await FixtureServer.with(Self.api) { base, _ in
            let (folder, config) = try site([
                "type": "flickr", "method": "flickr.photos.search", "apiKey": "${FLICKR_API_KEY}",
                "endpoint": "\(base)/services/rest/", "params": ["user_id": "67131352@N04"]
            ])
            let report = try await Build(
                config: config, options: BuildOptions(jobs: 2),
                progress: { event in
                    Task { await lines.add(event.line) }
                }
            ).run()
            return (folder, report)
        }
        let broken = report.failures.map(\.id).sorted()
        #expect(report.photosInManifest == 97)
        #expect(report.photosPublished == 97 - broken.count)
        #expect(broken.contains("7093101501"))
        let notFound = try #require(report.failures.first { $0.id == "7093101501" })
        #expect(notFound.stage == .fetch && notFound.status == 404 && notFound.reason.hasPrefix("HTTP 404"))
        #expect(notFound.location?.hasSuffix("7093101501_2e55ed8fbf_k.jpg") == true)
        let html = report.failures.filter { $0.reason.hasPrefix("not an image") }
        #expect(!html.isEmpty)
        #expect(report.downloads.downloaded == report.photosPublished)

        let output = folder.appendingPathComponent("public")
        let page = try String(
            contentsOf: output.appendingPathComponent("photos/7093100793/index.html"), encoding: .utf8)
        #expect(page.contains("Janko Marohnić"))
        #expect(page.contains("All Rights Reserved"))
        #expect(page.contains(#"href="https://www.flickr.com/photos/67131352@N04/7093100793/""#))

        // The key is in no output file, no report field and no progress line.
        var texts = [String(decoding: try report.json(), as: UTF8.self)] + (await lines.all)
        let walker = FileManager.default.enumerator(atPath: output.path)
        while let path = walker?.nextObject() as? String {
            guard path.hasSuffix(".html") else { continue }
            texts.append(try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8))
        }
        #expect(texts.count > 90)
        #expect(!texts.contains { $0.contains(Self.flickrKey) })
    }

    @Test("500px and Parse sites build from their APIs", arguments: ["500px", "parse"])
    func feedSites(_ type: String) async throws {
        let (folder, report) = try await FixtureServer.with(Self.api) { base, _ in
            let source: [String: Any] =
                type == "500px"
                ? ["type": "500px", "consumerKey": "${PX}", "endpoint": "\(base)/v1", "limit": 10]
                : ["type": "parse", "applicationId": "${APP}", "restApiKey": "${REST}", "endpoint": "\(base)/parse"]
            let (folder, config) = try site(source)
            return (folder, try await Build(config: config, options: BuildOptions(jobs: 2)).run())
        }
        #expect(report.photosPublished == (type == "500px" ? 10 : 4))
        let index = try String(contentsOf: folder.appendingPathComponent("public/index.html"), encoding: .utf8)
        #expect(index.contains(type == "500px" ? "Two jack lake." : "harbour at dusk"))
    }

    @Test func unreachableAPIKeepsThePreviousSite() async throws {
        let folder = try await FixtureServer.with(Self.api) { base, _ -> URL in
            let (folder, config) = try site(["type": "parse", "applicationId": "${APP}", "endpoint": "\(base)/parse"])
            _ = try await Build(config: config).run()
            return folder
        }
        let before = try Data(contentsOf: folder.appendingPathComponent("public/index.html"))
        // The same site again, but the API now answers 503 every time.
        try await FixtureServer.with({ _, _ in .json(#"{"code":1,"error":"down"}"#, status: 503) }) { base, log in
            var config = try SiteConfig.load(
                from: folder.appendingPathComponent("site-config.json"), environment: ["APP": "app-id-1234"])
            guard case .parse(var source) = config.source else { return }
            source.endpoint = base.appendingPathComponent("parse")
            config.source = .parse(source)
            do {
                _ = try await Build(config: config).run()
                Issue.record("expected the build to fail")
            } catch let error as BuildError {
                #expect(error.step == .manifest)
                #expect(error.reason.hasPrefix("parse: 127.0.0.1 did not answer: HTTP 503"))
                #expect(!error.reason.contains("app-id-1234"))
            }
            #expect(await log.requests.count == 2)  // one retry, then it gives up
        }
        #expect(try Data(contentsOf: folder.appendingPathComponent("public/index.html")) == before)
    }
}

actor LineLog {
    private(set) var all: [String] = []
    func add(_ line: String) { all.append(line) }
}
