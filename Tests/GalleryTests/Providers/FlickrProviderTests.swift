import Foundation
import GalleryConfig
import GalleryModel
import GalleryOutput
import GalleryProviders
import Testing

@Suite("Flickr provider")
struct FlickrProviderTests {
    static let key = "0123456789abcdef-SECRET"

    func source(_ base: URL, method: String = "flickr.photos.search", limit: Int? = nil, perPage: Int = 100)
        -> FlickrSource
    {
        FlickrSource(
            endpoint: base.appendingPathComponent("services/rest/"), apiKey: Self.key, method: method,
            params: ["user_id": "67131352@N04"], limit: limit, perPage: perPage)
    }

    let credentials = Credentials(secrets: [key], variables: ["source.apiKey": "FLICKR_API_KEY"])

    /// Serves the recorded search (97 rows) cut into pages of `pageSize`, and the recorded licence table.
    func handler(pageSize: Int) -> @Sendable (FixtureServer.Request, URL) async throws -> FixtureServer.Reply {
        { request, base in
            if request.isImage { return (try? FixtureServer.image(for: request.path)) ?? .json("{}", status: 500) }
            guard request.query["api_key"] == Self.key else {
                return try FixtureServer.recorded("flickr/error-invalid-api-key-2012.json", base: base)
            }
            if request.query["method"] == "flickr.photos.licenses.getInfo" {
                return try FixtureServer.recorded("flickr/licenses-getinfo-2012.json", base: base)
            }
            var object = try Paging.object("flickr/search-all-url-extras-2012.json", base: base)
            var photos = object["photos"] as! [String: Any]
            let rows = photos["photo"] as! [Any]
            let page = Int(request.query["page"] ?? "1")!
            let perPage = min(Int(request.query["per_page"] ?? "100")!, pageSize)
            photos["photo"] = Array(rows.dropFirst((page - 1) * perPage).prefix(perPage))
            photos["page"] = page
            photos["pages"] = (rows.count + perPage - 1) / perPage
            photos["perpage"] = perPage
            object["photos"] = photos
            return try Paging.json(object)
        }
    }

    @Test func mapsRecordedSearchRows() async throws {
        let manifest = try await FixtureServer.with(handler(pageSize: 100)) { base, _ in
            try await NetworkStack().run { downloader in
                try await FlickrProvider(source: source(base), downloader: downloader, credentials: credentials)
                    .fetchManifest()
            }
        }
        #expect(manifest.photos.count == 97)
        #expect(manifest.issues.isEmpty)
        let first = try #require(manifest.photos.first)
        #expect(first.id == "7093101501")
        #expect(first.title == "IMG_0917")
        #expect(first.author == "Janko Marohnić")
        #expect(first.authorURL?.absoluteString == "https://www.flickr.com/photos/67131352@N04/")
        #expect(first.sourcePage?.absoluteString == "https://www.flickr.com/photos/67131352@N04/7093101501/")
        #expect(first.takenAt == "2011-03-27T14:21:21")
        #expect(first.license?.name == "All Rights Reserved")
        #expect(first.location == nil)  // latitude/longitude 0 means "not geotagged"
        // url_o is absent in the recording: the largest present size is url_k (2048 px, its own secret).
        #expect(first.image.description.hasSuffix("/img/farm8.staticflickr.com/7090/7093101501_2e55ed8fbf_k.jpg"))
    }

    @Test func fetchesEveryPageOnceAndHonoursTheLimit() async throws {
        let (all, requests) = try await FixtureServer.with(handler(pageSize: 40)) { base, log in
            let manifest = try await NetworkStack().run { downloader in
                try await FlickrProvider(
                    source: source(base, perPage: 40), downloader: downloader, credentials: credentials
                ).fetchManifest()
            }
            return (manifest, await log.requests.filter { $0.query["method"] == "flickr.photos.search" })
        }
        #expect(all.photos.count == 97)
        #expect(requests.compactMap { $0.query["page"] }.sorted() == ["1", "2", "3"])
        #expect(Set(all.photos.map(\.id)).count == 97)

        let (limited, pages) = try await FixtureServer.with(handler(pageSize: 40)) { base, log in
            let manifest = try await NetworkStack().run { downloader in
                try await FlickrProvider(
                    source: source(base, limit: 50, perPage: 40), downloader: downloader,
                    credentials: credentials
                ).fetchManifest()
            }
            return (manifest, await log.count { $0.query["method"] == "flickr.photos.search" })
        }
        #expect(limited.photos.count == 50)
        #expect(pages == 2)
    }

    @Test func invalidKeyNamesTheVariableAndNeverTheKey() async throws {
        let error = try await FixtureServer.with({ request, base in
            try FixtureServer.recorded("flickr/error-invalid-api-key-2012.json", base: base)
        }) { base, _ in
            try await NetworkStack().run { downloader -> String in
                do {
                    _ = try await FlickrProvider(source: source(base), downloader: downloader, credentials: credentials)
                        .fetchManifest()
                    return "no error"
                } catch {
                    #expect((error as? ProviderError)?.kind == .refused)
                    return "\(error)"
                }
            }
        }
        #expect(error == "flickr: Invalid API Key (Key has invalid format) (code 100): check FLICKR_API_KEY")
        #expect(!error.contains(Self.key))
    }

    @Test func serviceUnavailableIsRetried() async throws {
        let counter = Counter()
        let manifest = try await FixtureServer.with({ request, base in
            if request.query["method"] == "flickr.photos.search", await counter.next() == 1 {
                return .json(#"{"stat":"fail","code":105,"message":"Service currently unavailable"}"#)
            }
            return try await handler(pageSize: 100)(request, base)
        }) { base, _ in
            try await NetworkStack().run { downloader in
                try await FlickrProvider(source: source(base), downloader: downloader, credentials: credentials)
                    .fetchManifest()
            }
        }
        #expect(manifest.photos.count == 97)
        #expect(await counter.value == 2)
    }

    @Test func jsonpWrappedBodiesAreUnwrapped() throws {
        let body = try JSONValue.parseLenient(try Fixtures.data("api/flickr/search-jsonp-wrapped-2012.jsonp"))
        #expect(body["stat"]?.text == "ok")
        #expect(body["photos"]?["photo"]?.array?.count == 2)
        #expect(body["photos"]?["total"]?.integer == 2)
        let row = try #require(body["photos"]?["photo"]?.array?.first)
        // No url_* extras.
        #expect(throws: MappingError.self) { try FlickrMapping.photo(row, licenses: [:], album: nil) }
    }

    @Test func recordedRowsUpgradeFlickrImagesToHTTPS() throws {
        let body = try JSONValue.parseLenient(try Fixtures.data("api/flickr/search-all-url-extras-2012.json"))
        let row = try #require(body["photos"]?["photo"]?.array?.first)
        let photo = try FlickrMapping.photo(row, licenses: FlickrMapping.builtInLicenses, album: "Trip")
        #expect(photo.image == .remote(URL(string: "https://farm8.staticflickr.com/7090/7093101501_2e55ed8fbf_k.jpg")!))
        #expect(photo.album == "Trip")
    }

    @Test func publicFeedNeedsNoKey() async throws {
        let manifest = try await FixtureServer.with({ request, base in
            try request.path.hasSuffix("photos_public.gne")
                ? FixtureServer.recorded("flickr/feed-photos_public-2024.json", base: base)
                : .json("{}", status: 404)
        }) { base, log in
            let feed = FlickrSource(
                endpoint: base.appendingPathComponent("services/feeds/photos_public.gne"), apiKey: nil,
                method: "feed", params: ["tags": "porcupine"], limit: nil, perPage: 20)
            let manifest = try await NetworkStack().run { downloader in
                try await FlickrProvider(source: feed, downloader: downloader, credentials: Credentials())
                    .fetchManifest()
            }
            let request = try #require(await log.requests.first)
            #expect(request.query["tags"] == "porcupine")
            #expect(request.query["api_key"] == nil)
            return manifest
        }
        #expect(manifest.photos.count == 20)
        let first = try #require(manifest.photos.first)
        #expect(first.id == "53769361124")
        #expect(first.title == "Porcupine in A Tree")
        #expect(first.author == "ZoomZoom Du Buisson")
        #expect(first.takenAt == "2024-05-12T11:54:28")
        #expect(first.tags.contains("porcupine"))
        #expect(first.image.description.hasSuffix("/53769361124_4f4e902d92_b.jpg"))
        #expect(first.description == nil || !(first.description!.contains("posted a photo")))
    }
}

actor Counter {
    private(set) var value = 0
    func next() -> Int {
        value += 1
        return value
    }
}
