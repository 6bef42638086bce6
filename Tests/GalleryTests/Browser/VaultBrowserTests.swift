import Foundation
import GalleryVault
import Testing

/// Files that Swift encrypted, opened by `Templates/static/vault.js` in Chromium, Firefox ESR and
/// WebKitGTK through `Tests/Browser/check_vault.py` and its test page (a minimal unlock form):
/// a wrong password shows the error and no image; the right one (at the real 600,000 PBKDF2
/// iterations) shows a sample JPEG encrypted in four 64 KiB chunks, decoded from a `blob:` URL;
/// a reload opens it from the tab's session without asking (and a changed key file asks again); a changed, cut or moved file is
/// refused; the photo streamed in pieces of any size decrypts the same; 24 photo-sized files decrypt to the very bytes encrypted. Each engine's derivation and
/// decryption times go to `.build/screenshots/vault/report-ENGINE.json` (docs/protected-albums.md
/// quotes them). Skipped like the other browser suites where an engine or its driver is missing.
extension LoadSensitive {
    @Suite("Encrypted files in three browsers", .serialized)
    struct VaultBrowserTests {
        static let password = "correct horse battery staple"
        /// Photos of about 200 KB from Samples/photos, cycled for the 24 files of a grid page.
        static let gridPhotos = [
            "ColorfulCups", "FallenLeaf", "Kite", "Wine_by_Jakkub_Mede", "friends_by_Aitzol_Berasategi",
            "seeding_by_Clements_Engelhardt", "sunset_by_Aitzol_Berasategi"
        ]

        /// The fixtures, made once for the three engines: they are only read.
        actor FixtureFolder {
            static let shared = FixtureFolder()
            private var made: URL?
            func folder() throws -> URL {
                if let made { return made }
                let folder = try VaultBrowserTests.makeFixtures()
                made = folder
                return folder
            }
        }

        static func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
            var digest = VaultCrypto.Digest()
            digest.update(Array(bytes))
            return digest.finish().map { String(format: "%02x", $0) }.joined()
        }

        static func makeFixtures() throws -> URL {
            let folder = try Fixtures.temporaryFolder()
            let photos = Fixtures.repository.appendingPathComponent("Samples/photos")
            let key = ContentKey.random()
            try KeyFile.wrap(key, password: password).json().write(to: folder.appendingPathComponent("key.json"))
            // The photo goes through the streamed encryption, as originals and videos will.
            let photo = photos.appendingPathComponent("Wine_by_Jakkub_Mede.jpg")
            let sealed = folder.appendingPathComponent("photo.gsv")
            try key.encryptFile(at: photo, to: sealed, path: "photo.jpg")
            var bytes = try Data(contentsOf: sealed)
            let block = VaultFormat.standard.chunkBytes + VaultCrypto.tagBytes
            #expect(bytes.count > VaultFormat.headerBytes + 2 * block, "the photo must take more than two chunks")
            try bytes.prefix(VaultFormat.headerBytes + 2 * block).write(
                to: folder.appendingPathComponent("truncated.gsv"))
            bytes[VaultFormat.headerBytes + block + 1000] ^= 0x01
            try bytes.write(to: folder.appendingPathComponent("tampered.gsv"))
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent("grid"), withIntermediateDirectories: true)
            var grid: [[String: String]] = []
            for index in 0..<24 {
                let plain = try Data(
                    contentsOf: photos.appendingPathComponent("\(gridPhotos[index % gridPhotos.count]).jpg"))
                let name = String(format: "grid/%02d", index)
                try Data(try key.encrypt(plain, path: name + ".jpg")).write(
                    to: folder.appendingPathComponent(name + ".gsv"))
                grid.append(["file": name + ".gsv", "path": name + ".jpg", "sha256": sha256Hex(plain)])
            }
            let fixture: [String: Any] = [
                "password": password, "wrongPassword": password + "!", "iterations": KDFParameters.standard.iterations,
                "photo": ["file": "photo.gsv", "path": "photo.jpg"], "tampered": "tampered.gsv",
                "truncated": "truncated.gsv", "grid": grid
            ]
            try JSONSerialization.data(withJSONObject: fixture).write(to: folder.appendingPathComponent("fixture.json"))
            return folder
        }

        static func number(_ value: Any?) -> Double? { BrowserTests.number(value) }
        static func object(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }

        /// Runs check_vault.py in `browser` and asserts everything it reports.
        static func check(_ browser: String) async throws {
            try BrowserTests.tools.require()
            let folder = try await FixtureFolder.shared.folder()
            let script = Fixtures.repository.appendingPathComponent("Tests/Browser/check_vault.py")
            let run = BrowserTools.run(["python3", script.path, "--fixtures", folder.path, "--browser", browser])
            guard run.status == 0, let result = try JSONSerialization.jsonObject(with: run.output) as? [String: Any]
            else {
                throw BrowserToolsMissing(
                    description: "check_vault.py failed (\(run.status)): \(run.errors.suffix(3000))")
            }
            let reports = Fixtures.repository.appendingPathComponent(".build/screenshots/vault")
            try? FileManager.default.createDirectory(at: reports, withIntermediateDirectories: true)
            try? run.output.write(to: reports.appendingPathComponent("report-\(browser).json"))

            #expect((result[browser] as? String ?? "").isEmpty == false, "\(result.keys)")
            #expect(result["secureContext"] as? Bool == true, "a loopback http page must be a secure context")
            let wrong = object(result["wrong"])
            #expect(object(wrong["state"])["code"] as? String == "wrong-password", "\(wrong)")
            #expect(wrong["error"] as? String == "Wrong password." && number(wrong["images"]) == 0, "\(wrong)")
            let right = object(result["right"])
            #expect(object(right["state"])["state"] as? String == "shown", "\(right)")
            #expect((number(right["naturalWidth"]) ?? 0) > 0 && right["src"] as? String == "blob:", "\(right)")
            #expect(right["errorShown"] as? Bool == false)
            let reload = object(result["reload"])
            #expect(
                object(reload["state"])["state"] as? String == "shown" && reload["formHidden"] as? Bool == true,
                "asked again: \(reload)")
            #expect(
                result["refusals"] as? [String: String] == [
                    "tampered.gsv as photo.jpg": "tampered", "truncated.gsv as photo.jpg": "truncated",
                    "photo.gsv as elsewhere/photo.jpg": "tampered", "photo.gsv as photo.jpg": "opened"
                ],
                "\(result["refusals"] ?? "")")
            // Streamed in pieces of any size, the photo is the same bytes, and the cut copy is still refused.
            let sha256 = try sha256Hex(
                Data(contentsOf: Fixtures.repository.appendingPathComponent("Samples/photos/Wine_by_Jakkub_Mede.jpg")))
            #expect(
                result["pieces"] as? [String: String] == [
                    "7": sha256, "1000": sha256, "65553": sha256,
                    "7 cut": "truncated", "1000 cut": "truncated", "65553 cut": "truncated"
                ],
                "\(result["pieces"] ?? "")")
            #expect((number(object(result["derive"])["medianMs"]) ?? 0) > 0, "\(result["derive"] ?? "")")
            let grid = object(result["grid"])
            #expect(grid["digestsMatch"] as? Bool == true && number(grid["decoded"]) == 24, "\(grid)")
            #expect((number(grid["decryptMs"]) ?? 0) > 0 && (number(grid["fetchAndDecryptMs"]) ?? 0) > 0, "\(grid)")
            #expect(result["consoleErrors"] as? [String] == [], "\(result["consoleErrors"] ?? "")")
            // A kept key serves its key file only: a new password or content key asks again.
            #expect(
                result["stale"] as? [String: Bool] == [
                    "sameKeyFile": true, "changedKeyFile": false, "afterwards": false
                ], "\(result["stale"] ?? "")")
        }

        @Test(
            "A wrong password, the photo, a reload, refusals and 24 files: Chromium",
            .enabled(
                if: BrowserTests.enabled, "needs \(BrowserTests.tools.missing.joined(separator: ", ")); see .ci/run"))
        func chromium() async throws { try await Self.check("chromium") }

        @Test(
            "A wrong password, the photo, a reload, refusals and 24 files: Firefox ESR",
            .enabled(
                if: ViewerBrowserTests.firefoxEnabled,
                "needs firefox-esr and GECKODRIVER naming a geckodriver; see .ci/run"))
        func firefox() async throws { try await Self.check("firefox") }

        @Test(
            "A wrong password, the photo, a reload, refusals and 24 files: WebKitGTK",
            .enabled(if: WebKitBrowserTests.enabled, "\(WebKitBrowserTests.why)"))
        func webkit() async throws { try await Self.check("webkit") }
    }
}
