import Foundation
import Testing

/// A built site's protected album in Chromium, Firefox ESR and WebKitGTK, through
/// `Tests/Browser/check_protected.py`: the shell asks for the password; a wrong one shows the error
/// and nothing of the album; the right one opens it through the service worker (its photos decode),
/// the photo page's viewer shows its photo, zooms into the original and plays the slideshow on to the
/// next photo, all decrypted; a reload in the tab does not ask again; the lock button (pressed from the
/// keyboard) forgets the key that "remember on this device" kept, and the password form is back, after a
/// reload too. Skipped like the other browser suites where an engine or its driver is missing.
extension LoadSensitive {
    @Suite("Protected albums in three browsers", .serialized)
    struct ProtectedBrowserTests {
        /// The site, built once for the three engines: they only read it.
        actor BuiltSite {
            static let shared = BuiltSite()
            private var made: (site: FixtureSite, album: String)?
            func site() async throws -> (site: FixtureSite, album: String) {
                if let made { return made }
                let site = try ProtectedAlbumTests.site()
                _ = try await site.build()
                let shell = try #require(
                    site.outputFiles().first {
                        $0.hasPrefix("albums/") && $0.split(separator: "/").count == 3
                            && (try? site.read($0).contains("id=\"protected\"")) == true
                    })
                made = (site, String(shell.dropLast("index.html".count)))
                return made!
            }
        }

        static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
        static func decoded(_ value: Any?) -> Bool {
            let images = value as? [[String: Any]] ?? []
            return !images.isEmpty
                && images.allSatisfy {
                    ($0["complete"] as? Bool) == true && (BrowserTests.number($0["width"]) ?? 0) > 0
                }
        }

        /// The site with a password for the whole of it (ProtectedSiteTests), built once.
        actor BuiltWholeSite {
            static let shared = BuiltWholeSite()
            private var made: FixtureSite?
            func site() async throws -> FixtureSite {
                if let made { return made }
                let site = try ProtectedSiteTests.site()
                _ = try await site.build()
                made = site
                return site
            }
        }

        static func run(_ browser: String, site: FixtureSite, album: String, password: String, extra: [String] = [])
            throws -> [String: Any]
        {
            try BrowserTests.tools.require()
            let script = Fixtures.repository.appendingPathComponent("Tests/Browser/check_protected.py")
            let run = BrowserTools.run(
                [
                    "python3", script.path, "--site", site.output.path, "--album", album,
                    "--password", password, "--browser", browser
                ] + extra)
            guard run.status == 0, let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            else {
                throw BrowserToolsMissing(
                    description: "check_protected.py failed (\(run.status)): \(run.errors.suffix(3000))")
            }
            return result
        }

        static func check(_ browser: String) async throws {
            let (site, album) = try await BuiltSite.shared.site()
            let result = try run(browser, site: site, album: album, password: ProtectedAlbumTests.password)
            #expect(
                result["formShown"] as? Bool == true && BrowserTests.number(result["shellImages"]) == 0, "\(result)")
            #expect(result["wrongError"] as? String == "That password does not open this album.", "\(result)")
            #expect((result["wrongTitle"] as? String ?? "").hasPrefix("Protected album"), "\(result)")
            #expect(
                result["opened"] as? Bool == true
                    && (result["albumTitle"] as? String ?? "").hasPrefix("Family Album Secret Title"), "\(result)")
            #expect(decoded(result["gridImages"]), "\(result["gridImages"] ?? "")")
            viewer(result)
        }

        /// A whole site with a password: the same, from its home page; its search (an encrypted index)
        /// finds a photo, whose original streams through the service worker whole and by range.
        static func checkSite(_ browser: String) async throws {
            let site = try await BuiltWholeSite.shared.site()
            let result = try run(
                browser, site: site, album: "", password: ProtectedSiteTests.password, extra: ["--search", "cups"])
            #expect(
                result["formShown"] as? Bool == true && BrowserTests.number(result["shellImages"]) == 0, "\(result)")
            #expect(result["wrongError"] as? String == "That password does not open this gallery.", "\(result)")
            #expect((result["wrongTitle"] as? String ?? "").hasPrefix("Protected gallery"), "\(result)")
            #expect(
                result["opened"] as? Bool == true && result["albumTitle"] as? String == "Fixture <Gallery>", "\(result)"
            )
            #expect(decoded(result["gridImages"]), "\(result["gridImages"] ?? "")")
            #expect(
                result["searchLinks"] as? [String] == ["Colourful cups"] && decoded(result["searchImages"]), "\(result)"
            )
            // Its original (five 64 KiB chunks) streams whole with its length, and a range across
            // chunks comes back alone (206) and equal to the same bytes of the whole.
            let stream = object(result["stream"])
            let bytes = Int(BrowserTests.number(stream["bytes"]) ?? 0)
            #expect(
                bytes > 200_000 && stream["contentLength"] as? String == String(bytes)
                    && stream["jpeg"] as? Bool == true, "\(stream)")
            #expect(
                BrowserTests.number(stream["rangeStatus"]) == 206
                    && stream["contentRange"] as? String == "bytes 70000-200000/\(bytes)"
                    && BrowserTests.number(stream["rangeBytes"]) == 130_001 && stream["rangeMatches"] as? Bool == true,
                "\(stream)")
            viewer(result)
        }

        static func viewer(_ result: [String: Any]) {
            #expect(result["photoOpened"] as? Bool == true && decoded(result["photoImages"]), "\(result)")
            #expect(result["zoomed"] as? Bool == true && decoded(result["zoomImage"]), "\(result)")
            #expect(result["slideshowAdvanced"] as? Bool == true && decoded(result["slideshowImages"]), "\(result)")
            #expect(
                result["reloadOpened"] as? Bool == true
                    && !(result["reloadTitle"] as? String ?? "").hasPrefix("Protected"), "\(result)")
            // The key was kept in the tab and on the device; the lock button forgets it everywhere.
            #expect(
                BrowserTests.number(result["keptBeforeLock"]) == 2 && result["lockShown"] as? Bool == true
                    && result["lockName"] as? String == "Lock", "\(result)")
            #expect(
                result["lockedForm"] as? Bool == true && BrowserTests.number(result["keptAfterLock"]) == 0
                    && result["lockedReloadForm"] as? Bool == true, "\(result)")
            #expect(result["consoleErrors"] as? [String] == [], "\(result["consoleErrors"] ?? "")")
        }

        @Test(
            "A whole site: password, home, search, viewer, zoom, slideshow and reload in Chromium, Firefox ESR and WebKitGTK",
            .enabled(
                if: BrowserTests.enabled, "needs \(BrowserTests.tools.missing.joined(separator: ", ")); see .ci/run"))
        func wholeSite() async throws {
            try await Self.checkSite("chromium")
            if ViewerBrowserTests.firefoxEnabled { try await Self.checkSite("firefox") }
            if WebKitBrowserTests.enabled { try await Self.checkSite("webkit") }
        }

        @Test(
            "Password, album, viewer, zoom, slideshow and reload: Chromium",
            .enabled(
                if: BrowserTests.enabled, "needs \(BrowserTests.tools.missing.joined(separator: ", ")); see .ci/run"))
        func chromium() async throws { try await Self.check("chromium") }

        @Test(
            "Password, album, viewer, zoom, slideshow and reload: Firefox ESR",
            .enabled(
                if: ViewerBrowserTests.firefoxEnabled,
                "needs firefox-esr and GECKODRIVER naming a geckodriver; see .ci/run"))
        func firefox() async throws { try await Self.check("firefox") }

        @Test(
            "Password, album, viewer, zoom, slideshow and reload: WebKitGTK",
            .enabled(if: WebKitBrowserTests.enabled, "\(WebKitBrowserTests.why)"))
        func webkit() async throws { try await Self.check("webkit") }
    }
}
