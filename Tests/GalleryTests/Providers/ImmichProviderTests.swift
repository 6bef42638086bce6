import Foundation
import GalleryConfig
import GalleryModel
import GalleryProviders
import Testing

/// The Immich source against a loopback server answering Immich's API with responses shaped from its
/// OpenAPI document (version 1.112.1): the key checked on every request, albums picked by id or name.
@Suite("Immich source")
struct ImmichProviderTests {
    static let key = "imm1ch-KEY-never-print-me"
    static let norway = "5f1e0a3c-7b2d-4c8e-9a61-0d3f2b7c9e10"
    static let family = "8c2b4d6e-1f3a-4b5c-8d7e-9f0a1b2c3d4e"
    static let screenshots = "0a0b0c0d-0e0f-4a1b-8c2d-3e4f5a6b7c8d"
    static func asset(_ digit: Character) -> String {
        let d = String(digit)
        return String(repeating: d, count: 8) + "-" + String(repeating: d, count: 4) + "-4"
            + String(repeating: d, count: 3) + "-8" + String(repeating: d, count: 3) + "-"
            + String(repeating: d, count: 12)
    }

    /// Immich's API: 401 with its JSON body for a missing or wrong `x-api-key`, the recorded albums,
    /// and a 404 for any other path; originals are left to `originals`.
    static func api(
        originals: @escaping @Sendable (String, FixtureServer.Request) async throws -> FixtureServer.Reply = { id, _ in
            try FixtureServer.image(for: id)
        }
    ) -> @Sendable (FixtureServer.Request, URL) async throws -> FixtureServer.Reply {
        { request, _ in
            guard request.headers["x-api-key"] == key else {
                return .data(
                    status: 401, contentType: "application/json",
                    body: try Fixtures.data("api/immich/error-401-invalid-key.json"))
            }
            let parts = request.path.split(separator: "/").map(String.init)
            switch parts.count == 1 ? [] : Array(parts.dropFirst()) {
            case ["albums"]:
                return .json(String(decoding: try Fixtures.data("api/immich/albums-1.112.json"), as: UTF8.self))
            case ["albums", norway]:
                return .json(String(decoding: try Fixtures.data("api/immich/album-norway-1.112.json"), as: UTF8.self))
            case ["albums", family]:
                return .json(String(decoding: try Fixtures.data("api/immich/album-family-1.112.json"), as: UTF8.self))
            case ["albums", screenshots]:
                // An empty album answers as it is listed.
                let listed = try JSONSerialization.jsonObject(with: try Fixtures.data("api/immich/albums-1.112.json"))
                let album = (listed as? [[String: Any]])?.first { $0["id"] as? String == screenshots } ?? [:]
                return .data(
                    status: 200, contentType: "application/json",
                    body: try JSONSerialization.data(withJSONObject: album))
            case let path where path.count == 3 && path[0] == "assets" && path[2] == "original":
                return try await originals(path[1], request)
            default:
                return .json(#"{"message":"Not found","error":"Not Found","statusCode":404}"#, status: 404)
            }
        }
    }

    static func source(_ base: URL, key: String = key, albums: [String]) -> ImmichSource {
        ImmichSource(server: base, apiKey: key, apiKeyEnv: "IMMICH_API_KEY", albums: albums)
    }

    static func manifest(key: String = key, albums: [String]) async throws -> (Manifest, [FixtureServer.Request]) {
        try await FixtureServer.with(api()) { base, log in
            let manifest = try await NetworkStack().run { downloader in
                try await ImmichProvider(
                    source: source(base, key: key, albums: albums), downloader: downloader,
                    credentials: Credentials(secrets: [key])
                ).fetchManifest()
            }
            return (manifest, await log.requests)
        }
    }

    @Test func albumsByNameOrIdKeepTheirAssetsDescriptionsAndOrder() async throws {
        let (manifest, requests) = try await Self.manifest(albums: ["Norway 2024", "family", Self.family])
        #expect(requests.map(\.path) == ["/api/albums", "/api/albums/\(Self.norway)", "/api/albums/\(Self.family)"])
        #expect(requests.allSatisfy { $0.headers["x-api-key"] == Self.key })
        // The Live Photo's clip (3) is not an item; fjord (1) is in both albums and published once.
        #expect(manifest.photos.map(\.id) == ["1", "2", "4", "7", "8"].map { Self.asset(Character($0)) })
        let fjord = try #require(manifest.photos.first)
        #expect(fjord.album == "Norway 2024" && fjord.rating == 5 && fjord.tags == ["fjord", "Norway"])
        #expect(fjord.description == "Geirangerfjord at dawn <script>alert('x')</script>")
        #expect(fjord.fallbackTitle == "fjord" && fjord.camera.model == "Canon EOS R6" && fjord.camera.iso == 100)
        #expect(fjord.camera.exposureTime == 1.0 / 250 && fjord.location?.latitude == 62.1008)
        #expect(fjord.image.description.hasSuffix("/api/assets/\(Self.asset("1"))/original"))
        #expect(manifest.photos[2].fallbackTitle == "ferry ride" && manifest.photos[2].rating == 4)
        // The Live Photo (2) has its clip's original as its motion; the others have none.
        #expect(manifest.photos[1].motion?.remoteURL?.path == "/api/assets/\(Self.asset("3"))/original")
        #expect(manifest.photos.filter { $0.motion != nil }.map(\.id) == [Self.asset("2")])
        #expect(manifest.albums["Norway 2024"]?.description == "Fjords and **ferries**, June 2024.")
        #expect(manifest.albums["Norway 2024"]?.sort == PhotoSort("taken"))
        #expect(manifest.albums["Family"]?.sort == PhotoSort("-taken"))
        #expect(manifest.issues.map(\.item) == [Self.asset("5"), Self.asset("6")])
        #expect(manifest.issues.last?.reason.contains("trash") == true)
    }

    @Test func everyAlbumWhenNoneAreNamed() async throws {
        let (manifest, requests) = try await Self.manifest(albums: [])
        #expect(requests.count == 4)
        #expect(Set(manifest.albums.keys) == ["Norway 2024", "Family", "Screenshots"])
    }

    @Test func wrongKeyNamesTheVariableAndNeverTheKey() async throws {
        let wrong = "wrong-KEY-also-secret"
        let error = try await #require(throws: ProviderError.self) {
            _ = try await Self.manifest(key: wrong, albums: ["Family"])
        }
        #expect(error.kind == .refused)
        #expect(error.description.contains("401") && error.description.contains("IMMICH_API_KEY"))
        #expect(!error.description.contains(wrong) && !error.description.contains(Self.key))
    }

    @Test func unknownAlbumListsTheAlbumsTheKeySees() async throws {
        let error = try await #require(throws: ProviderError.self) {
            _ = try await Self.manifest(albums: ["Iceland"])
        }
        #expect(error.kind == .refused)
        #expect(error.description.contains(#""Iceland""#) && error.description.contains(#""Norway 2024""#))
    }

    @Test func hostileAlbumIdsAndNamesAreNeitherRequestedNorPublishedRaw() throws {
        let listed: [JSONValue] = [
            .object(["id": .string("../../assets/x"), "albumName": .string("Evil")]),
            .object(["id": .string(Self.norway), "albumName": .string("a/b\n..")])
        ]
        #expect(try ImmichAlbums.pick([], from: listed).map(\.id) == [Self.norway])
        var taken: Set<String> = ["Trip"]
        #expect(ImmichAlbums.uniqueName("a/b", taken: &taken) == "a∕b")
        #expect(ImmichAlbums.uniqueName("Trip", taken: &taken) == "Trip (2)")
    }

    @Test func configReadsTheKeyFromTheNamedVariable() throws {
        let folder = try Fixtures.temporaryFolder()
        let file = folder.appendingPathComponent("site-config.json")
        func load(_ environment: [String: String], url: String = "https://photos.example.com/api/") throws -> SiteConfig
        {
            let text =
                #"{"source": {"type": "immich", "url": "\#(url)", "apiKeyEnv": "IMMICH_API_KEY", "albums": ["Family"]}}"#
            try Data(text.utf8).write(to: file)
            return try SiteConfig.load(from: file, environment: environment)
        }
        let config = try load(["IMMICH_API_KEY": Self.key])
        guard case .immich(let immich) = config.source else {
            Issue.record("not an immich source")
            return
        }
        #expect(immich.apiBase.absoluteString == "https://photos.example.com/api/" && immich.albums == ["Family"])
        #expect(config.credentials.redact("k=\(Self.key)") == "k=***")
        let missing = try #require(throws: ConfigError.self) { _ = try load([:]) }
        #expect("\(missing)".contains("source.apiKeyEnv") && "\(missing)".contains("export IMMICH_API_KEY="))
        let bad = try #require(throws: ConfigError.self) { _ = try load(["IMMICH_API_KEY": "k"], url: "ftp://x") }
        #expect("\(bad)".contains("source.url"))
    }
}
