import Foundation
import GalleryConfig
import GalleryModel
import GalleryOutput
import GalleryProviders
import Testing

@Suite("500px and Parse providers")
struct FeedProviderTests {
    // MARK: 500px

    func pxSource(_ base: URL, limit: Int? = nil, perPage: Int = 50) -> FiveHundredPxSource {
        FiveHundredPxSource(
            endpoint: base.appendingPathComponent("v1"), consumerKey: "px-consumer-SECRET", feature: "popular",
            params: ["only": "Landscapes"], imageSizes: [2048, 4], limit: limit, perPage: perPage)
    }

    @Test func mapsRecordedPopularStream() async throws {
        let manifest = try await FixtureServer.with({ request, base in
            try request.path == "/v1/photos"
                ? FixtureServer.recorded("500px/popular-2019.json", base: base) : .json("{}", status: 404)
        }) { base, log in
            let manifest = try await NetworkStack().run { downloader in
                try await FiveHundredPxProvider(
                    source: pxSource(base, limit: 50), downloader: downloader,
                    credentials: Credentials()
                ).fetchManifest()
            }
            let request = try #require(await log.requests.first)
            #expect(request.query["feature"] == "popular")
            #expect(request.query["only"] == "Landscapes")
            #expect(request.query["consumer_key"] == "px-consumer-SECRET")
            #expect(await log.requests.count == 1)  // the limit is reached on page 1 of 1,620
            return manifest
        }
        #expect(manifest.photos.count == 50)
        let first = try #require(manifest.photos.first)
        #expect(first.id == "1005044390")
        #expect(first.title == "Two jack lake.")
        #expect(first.author == "Tanner Wendell Stewart")
        #expect(first.authorURL?.absoluteString == "https://500px.com/tannerwendellstewart")
        #expect(first.camera.model == "NIKON CORPORATION NIKON D850")
        #expect(first.camera.lens == nil)  // recorded as "0"
        #expect(first.camera.exposureTime == 1.0 / 25)
        #expect(first.camera.aperture == 11)
        #expect(first.camera.focalLength == 50)
        #expect(first.camera.iso == 64)
        #expect(first.takenAt == "2018-10-04T08:04:08+00:00")
        #expect(first.location == GeoPoint(latitude: 51.2280476, longitude: -115.4965835))
        #expect(first.license == nil)  // the 2019 recording has no license_type
        #expect(
            first.sourcePage?.absoluteString
                == "https://500px.com/photo/1005044390/Two-jack-lake-by-Tanner-Wendell-Stewart")
        #expect(first.image.description.contains("/img/drscdn.500px.org/photo/1005044390/"))
    }

    @Test func overlappingPagesAreDeduplicated() async throws {
        let manifest = try await FixtureServer.with({ request, base in
            var object = try Paging.object("500px/popular-2019.json", base: base)
            let photos = object["photos"] as! [Any]
            let page = Int(request.query["page"] ?? "1")!
            // Server-side caching: page 2 repeats ten photos of page 1.
            object["photos"] = page == 1 ? Array(photos[0..<30]) : Array(photos[20..<50])
            object["current_page"] = page
            object["total_pages"] = 2
            return try Paging.json(object)
        }) { base, _ in
            try await NetworkStack().run { downloader in
                try await FiveHundredPxProvider(
                    source: pxSource(base, perPage: 30), downloader: downloader,
                    credentials: Credentials()
                ).fetchManifest()
            }
        }
        #expect(manifest.photos.count == 50)
        #expect(Set(manifest.photos.map(\.id)).count == 50)
    }

    @Test func apiErrorsAreReadFromTheBody() async throws {
        let message = try await FixtureServer.with({ _, _ in
            .json(#"{"status":401,"error":"Consumer key missing"}"#, status: 401)
        }) { base, _ in
            try await NetworkStack().run { downloader -> String in
                do {
                    _ = try await FiveHundredPxProvider(
                        source: pxSource(base), downloader: downloader,
                        credentials: Credentials(
                            secrets: ["px-consumer-SECRET"],
                            variables: ["source.consumerKey": "PX500_KEY"])
                    ).fetchManifest()
                    return "no error"
                } catch { return "\(error)" }
            }
        }
        #expect(message == "500px: 401 Consumer key missing: check PX500_KEY")
    }

    // MARK: Parse

    func parseSource(_ base: URL, perPage: Int = 2) -> ParseSource {
        ParseSource(
            endpoint: base.appendingPathComponent("parse"), applicationId: "app-id-SECRET",
            restApiKey: "rest-key-SECRET",
            className: "Resource", columns: ParseSource.defaultColumns, order: "createdAt,objectId", whereJSON: nil,
            limit: nil, perPage: perPage)
    }

    /// Pages the hand-made Resource rows by `skip`/`limit`, and checks the headers like parse-server does.
    let parseServer: @Sendable (FixtureServer.Request, URL) async throws -> FixtureServer.Reply = { request, base in
        guard request.path == "/parse/classes/Resource" else {
            return .data(status: 404, contentType: "text/html", body: Data("Cannot GET \(request.path)".utf8))
        }
        guard request.headers["x-parse-application-id"] == "app-id-SECRET",
            request.headers["x-parse-rest-api-key"] == "rest-key-SECRET"
        else {
            return .json(#"{"error":"unauthorized"}"#, status: 403)
        }
        var object = try Paging.object("parse/resource-rows-handmade.json", base: base)
        let rows = object["results"] as! [Any]
        let skip = Int(request.query["skip"] ?? "0")!
        let limit = Int(request.query["limit"] ?? "100")!
        object["results"] = Array(rows.dropFirst(skip).prefix(limit))
        if request.query["count"] != "1" { object["count"] = nil }
        return try Paging.json(object)
    }

    @Test func pagesAClassWithHeadersAndMapsColumns() async throws {
        let (manifest, requests) = try await FixtureServer.with(parseServer) { base, log in
            let manifest = try await NetworkStack().run { downloader in
                try await ParseProvider(source: parseSource(base), downloader: downloader, credentials: Credentials())
                    .fetchManifest()
            }
            return (manifest, await log.requests)
        }
        #expect(requests.map { $0.query["skip"] } == ["0", "2", "4"])
        #expect(
            requests.map { $0.query["order"] } == ["createdAt,objectId", "createdAt,objectId", "createdAt,objectId"])
        #expect(requests.first?.query["count"] == "1")
        #expect(manifest.photos.map(\.id) == ["aB3dE5gH7j", "Kq9Lm2Np4R", "Tt5Yy7Uu9I", "Oo1Pp3Aa5S"])
        #expect(manifest.photos[0].title == "harbour at dusk")
        #expect(manifest.photos[0].takenAt == "2016-03-01T10:00:00.000Z")
        // Image URLs point at the test server's /img/ (rewritten from the recorded hosts).
        #expect(manifest.photos[2].image.description.hasSuffix("/img/files.example.com/files/app/tfss-1-bridge.jpg"))
        #expect(manifest.photos[3].image.description.hasSuffix("/img/bucket.s3.amazonaws.com/uploads/only_thumb.jpg"))
        #expect(manifest.issues.map(\.item) == ["Zx8Cv6Bn1M"])
        #expect(manifest.issues.first?.reason.contains("column \"fileURLString\" is missing") == true)
    }

    @Test func unauthorizedAndWrongMountPathAreExplained() async throws {
        let messages = try await FixtureServer.with(parseServer) { base, _ in
            try await NetworkStack().run { downloader -> [String] in
                var results: [String] = []
                var wrongKey = parseSource(base)
                wrongKey.restApiKey = "nope"
                var wrongPath = parseSource(base)
                wrongPath.endpoint = base.appendingPathComponent("api")
                for source in [wrongKey, wrongPath] {
                    do {
                        _ = try await ParseProvider(source: source, downloader: downloader, credentials: Credentials())
                            .fetchManifest()
                        results.append("no error")
                    } catch { results.append("\(error)") }
                }
                return results
            }
        }
        #expect(messages[0] == "parse: 403 unauthorized: check applicationId/restApiKey")
        #expect(
            messages[1]
                == #"parse: HTTP 404, and the body is not JSON ("Cannot GET /api/classes/Resource"); check source.endpoint, which should end with the server's mount path, e.g. https://example.com/parse"#
        )
    }

    @Test func recordedSchemalessRowsAreToleratedAndCounted() throws {
        let body = try JSONValue.parseLenient(try Fixtures.data("api/parse/query-count-true-2017.json"))
        #expect(body["count"]?.integer == 69)
        let rows = try #require(body["results"]?.array)
        var collector = ManifestCollector(limit: nil)
        for row in rows {
            collector.add(
                Result { try ParseMapping(columns: ["title": "title", "image": "title"]).photo(row) }, position: "r")
        }
        // Post rows hold no image URLs: every row is reported, none crashes, none is published.
        #expect(collector.manifest.photos.isEmpty)
        #expect(collector.manifest.issues.count == 69)
        let notFound = try JSONValue.parseLenient(try Fixtures.data("api/parse/error-101-object-not-found-2017.json"))
        #expect(notFound["code"]?.integer == 101)
    }
}
