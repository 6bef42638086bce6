import Foundation
import GalleryConfig
import GalleryPipeline
import Testing

/// The justified grid of issue 29 in headless Chromium (and Firefox ESR where it is installed),
/// through `Tests/Browser/grid_flow.py` (check_viewer.py --only flow,stall,pages,gridRows,plainRows):
/// one continuous flow however many pages infinite scroll appends (fault 2), page links that
/// follow what is loaded (fault 3), loading that never stalls (fault 8), and phone rows that
/// respect the photo, with and without JavaScript, on the audit's mixed-shape site (fault 4).
extension LoadSensitive {
    @Suite("The justified grid in a real browser", .serialized)
    struct GridFlowBrowserTests {
        static let enabled = BrowserTests.enabled
        static func number(_ value: Any?) -> Double? { BrowserTests.number(value) }
        static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
        static func numbers(_ value: Any?) -> [Double] { (value as? [Any] ?? []).compactMap(number) }

        @Test(
            "One flow, page links that follow, no stall: the sample in Chromium",
            .enabled(if: enabled, "needs \(BrowserTests.tools.missing.joined(separator: ", ")); see .ci/run"))
        func sample() async throws {
            let result = try await ViewerBrowserTests.check(["--only", "flow,stall,pages"])
            Self.assertFlow(Self.object(result["flow"]), tiles: Self.number(result["photos"]) ?? 0)
            Self.assertStall(Self.object(result["stall"]))
            Self.assertPages(Self.object(result["pages"]))
        }

        @Test("The same in WebKitGTK", .enabled(if: WebKitBrowserTests.enabled, "\(WebKitBrowserTests.why)"))
        func webkit() async throws {
            let result = try await ViewerBrowserTests.check(["--browser", "webkit", "--only", "flow,stall,pages"])
            Self.assertFlow(Self.object(result["flow"]), tiles: Self.number(result["photos"]) ?? 0)
            Self.assertStall(Self.object(result["stall"]))
            Self.assertPages(Self.object(result["pages"]))
        }

        @Test(
            "The same in Firefox ESR",
            .enabled(if: ViewerBrowserTests.firefoxEnabled, "needs Firefox ESR and GECKODRIVER; see .ci/run"))
        func firefox() async throws {
            let result = try await ViewerBrowserTests.check(["--browser", "firefox", "--only", "flow,stall,pages"])
            Self.assertFlow(Self.object(result["flow"]), tiles: Self.number(result["photos"]) ?? 0)
            Self.assertStall(Self.object(result["stall"]))
            Self.assertPages(Self.object(result["pages"]))
        }

        @Test(
            "Phone rows that respect the photo: the mixed-shape site",
            .enabled(
                if: enabled && FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg"),
                "needs Chromium and ffmpeg"))
        func mixed() async throws {
            let folder = try Fixtures.temporaryFolder()
            let maker = Fixtures.repository.appendingPathComponent("Tests/Fixtures/mixed/make-mixed-site.py")
            let made = BrowserTools.run(["python3", maker.path, folder.path])
            try #require(made.status == 0, "make-mixed-site.py: \(made.errors.suffix(2000))")
            var config = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"), environment: [:])
            config.output = folder.appendingPathComponent("public")
            config.stateDirectory = folder.appendingPathComponent("state")
            let report = try await Build(config: config, options: BuildOptions(jobs: 2)).run()
            #expect(report.failures == [])
            let result = try await ViewerBrowserTests.check(["--only", "flow,gridRows,plainRows"], site: config.output)
            Self.assertFlow(Self.object(result["flow"]), tiles: 40)
            let rows = Self.object(result["gridRows"])
            #expect(rows.count >= 8, "\(rows.keys.sorted())")
            for (page, measured) in rows.sorted(by: { $0.key < $1.key }) {
                let measured = Self.object(measured)
                let screen = Self.number(measured["screenHeight"]) ?? 0
                let heights = Self.numbers(measured["heights"])
                // No row taller than half the screen; on phones, rows of 100–300 px.
                #expect(heights.allSatisfy { $0 <= screen / 2 }, "\(page): \(heights)")
                if page.hasPrefix("390x") {
                    #expect(heights.allSatisfy { (95...300).contains($0) }, "\(page): \(heights)")
                }
                if page.hasSuffix(" index.html") {
                    #expect(
                        (Self.number(measured["photoShare"]) ?? 0) >= 0.6,
                        "\(page): first screen \(measured["photoShare"] ?? "")")
                }
            }
            // Without JavaScript the build's own phone rows: the same rules.
            let plain = Self.object(result["plainRows"])
            #expect(plain.count >= 4)
            for (page, measured) in plain {
                let measured = Self.object(measured)
                let heights = Self.numbers(measured["heights"])
                #expect(heights.allSatisfy { (95...300).contains($0) }, "\(page) without JavaScript: \(heights)")
                #expect(
                    Self.numbers(measured["freeBeforeLast"]).allSatisfy { $0 <= 1 },
                    "\(page) without JavaScript: \(measured)")
            }
        }

        /// Every width, slow or jumping: every row but the last fills the width, gaps of 6 px.
        static func assertFlow(_ flow: [String: Any], tiles: Double) {
            #expect(flow.count == 8, "\(flow.keys.sorted())")
            for (name, run) in flow.sorted(by: { $0.key < $1.key }) {
                let run = object(run)
                #expect(number(run["tiles"]) == tiles && run["loaded"] as? Bool == true, "\(name): \(run)")
                #expect(
                    numbers(run["freeBeforeLast"]).allSatisfy { $0 <= 1 }, "\(name): a short row before the last \(run)"
                )
                for key in ["gaps", "rowGaps"] {
                    #expect(numbers(run[key]).allSatisfy { abs($0 - 6) <= 0.6 }, "\(name): \(key) \(run[key] ?? "")")
                }
            }
        }

        /// Twenty fresh loads whose reader was at the end before the scripts started: each appends.
        static func assertStall(_ stall: [String: Any]) {
            #expect(number(stall["loads"]) == 20 && number(stall["appended"]) == 20, "\(stall)")
        }

        /// Everything loaded: the last page is marked, and no Next leads to a page already on screen.
        static func assertPages(_ pages: [String: Any]) {
            let numbers = pages["numbers"] as? [String] ?? []
            #expect(pages["visible"] as? Bool == true && pages["next"] is NSNull, "\(pages)")
            #expect(
                pages["current"] as? String == numbers.last && number(pages["pagesInGrid"]) == Double(numbers.count),
                "\(pages)")
        }
    }
}
