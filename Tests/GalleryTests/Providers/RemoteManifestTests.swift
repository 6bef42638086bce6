import Foundation
import GalleryConfig
import GalleryFetch
import GalleryModel
import GalleryPipeline
import GalleryProviders
import Testing

@Suite("Manifest over HTTP")
struct RemoteManifestTests {
    @Test func buildsFromAManifestURLWithRelativeImageURLs() async throws {
        let manifest = """
            {"photos": [
              {"id": "a", "title": "From the server", "image": "images/photo-1.jpg"},
              {"id": "b", "title": "Absolute", "image": "/images/photo-2.jpg"},
              {"id": "gone", "title": "Missing", "image": "images/nope.jpg"}
            ]}
            """
        let routes: [String: FixtureServer.Reply] = [
            "/feeds/manifest.json": .json(manifest),
            "/feeds/images/photo-1.jpg": .ok(try Fixtures.data("images/photo-1.jpg"), contentType: "image/jpeg"),
            "/images/photo-2.jpg": .ok(try Fixtures.data("images/photo-2.jpg"), contentType: "image/jpeg")
        ]
        let folder = try Fixtures.temporaryFolder()
        let report = try await FixtureServer.with(routes) { base in
            let config =
                [
                    "title": "Remote", "source": ["type": "manifest", "url": "\(base)/feeds/manifest.json"],
                    "images": ["thumbnail": 64, "preview": 120]
                ] as [String: Any]
            try JSONSerialization.data(withJSONObject: config).write(
                to: folder.appendingPathComponent("site-config.json"))
            let site = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"), environment: [:])
            return try await Build(config: site).run()
        }
        #expect(report.photosPublished == 2)
        #expect(report.failures.map(\.id) == ["gone"])
        #expect(report.failures.first?.stage == .fetch)
        #expect(report.failures.first?.reason.hasPrefix("HTTP 404") == true)
        let page = try String(contentsOf: folder.appendingPathComponent("public/photos/a/index.html"), encoding: .utf8)
        #expect(page.contains("From the server"))
        // Remote originals are linked, not copied.
        #expect(page.contains(#"<a href="http://127.0.0.1:"#))
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("public/photos/a/original.jpg").path))
    }

    @Test func oversizedResponsesAreRefused() async throws {
        let routes = ["/big.jpg": FixtureServer.Reply.ok(Data(repeating: 0xff, count: 64 * 1024))]
        let message = try await FixtureServer.with(routes) { base -> String in
            let settings = NetworkSettings(timeoutSeconds: Fixtures.seconds(10), maxDownloadBytes: 4096)
            let transport = HTTPTransport(settings: settings)
            var reason = "no error"
            do {
                _ = try await transport.get(URL(string: "\(base)/big.jpg")!)
            } catch let error as FetchError {
                reason = error.reason
            }
            await transport.shutdown()
            return reason
        }
        #expect(message == "response is larger than 4096 bytes (network.maxDownloadBytes)")
    }

    /// A manifest is capped by `network.maxDownloadBytes`, the key its error names, over HTTP and on
    /// disk alike: under the cap it is read, over it refused, and raising the key lets it in.
    @Test func manifestSizeFollowsMaxDownloadBytes() async throws {
        let entries = (0..<200).map { #"{"id": "p\#($0)", "title": "Photo \#($0)", "image": "images/photo-1.jpg"}"# }
        let manifest = #"{"photos": ["# + entries.joined(separator: ",") + "]}"
        let file = try Fixtures.temporaryFolder().appendingPathComponent("manifest.json")
        try Data(manifest.utf8).write(to: file)
        func photos(_ location: @escaping @Sendable (URL) -> ManifestProvider.Location, cap: Int) async throws
            -> Result<Int, ProviderError>
        {
            try await FixtureServer.with(["/manifest.json": .json(manifest)]) { base in
                let transport = HTTPTransport(
                    settings: NetworkSettings(timeoutSeconds: Fixtures.seconds(10), maxDownloadBytes: cap))
                let provider = ManifestProvider(
                    location: location(base), downloader: Downloader(transport: transport, cacheFolder: nil))
                let result: Result<Int, ProviderError>
                do {
                    result = .success(try await provider.fetchManifest().photos.count)
                } catch let error as ProviderError {
                    result = .failure(error)
                }
                await transport.shutdown()
                return result
            }
        }
        let locations: [@Sendable (URL) -> ManifestProvider.Location] = [
            { .url($0.appendingPathComponent("manifest.json")) }, { _ in .file(file) }
        ]
        for location in locations {
            let small = manifest.utf8.count / 2
            guard case .failure(let error) = try await photos(location, cap: small) else {
                Issue.record("a manifest over network.maxDownloadBytes was read")
                continue
            }
            #expect("\(error)".contains("network.maxDownloadBytes"), "\(error)")
            #expect(try await photos(location, cap: manifest.utf8.count * 2).get() == 200)
        }
    }

    @Test func plainHTTPIsOnlyAllowedToLoopback() async throws {
        let settings = NetworkSettings(timeoutSeconds: Fixtures.seconds(5), maxDownloadBytes: 1024)
        let transport = HTTPTransport(settings: settings)
        // The policy is checked before any connection is made, so this sends no traffic.
        await #expect(throws: FetchError.self) {
            _ = try await transport.get(URL(string: "http://photos.example.com/a.jpg")!)
        }
        do {
            _ = try await transport.get(URL(string: "http://photos.example.com/a.jpg")!)
        } catch let error as FetchError {
            #expect(
                error.description
                    == "http://photos.example.com/a.jpg: plain http is allowed only to loopback; use https or set source.allowInsecureHTTP"
            )
        }
        await transport.shutdown()
        #expect(HTTPTransport.isLoopback("127.0.0.1"))
        #expect(HTTPTransport.isLoopback("127.8.9.10"))
        #expect(HTTPTransport.isLoopback("[::1]"))
        #expect(HTTPTransport.isLoopback("localhost"))
        #expect(!HTTPTransport.isLoopback("127.0.0.1.evil.example"))
        #expect(!HTTPTransport.isLoopback("10.0.0.1"))
    }
}
