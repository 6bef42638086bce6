import Foundation
import GalleryConfig
import GalleryOutput
import GalleryPipeline
import Testing

extension LoadSensitive {
    /// `build --host`, `check` and `deploy --host` with the built `galleryssg`, on a site genuinely
    /// over Cloudflare Pages' Free plan (20,000 files), counted here from the built tree.
    @Suite("Host limits on the command line", .serialized)
    struct HostCLITests {
        /// 205 copies of a 160×100 photo, each its own original, at 47 widths plus the thumbnail and
        /// the preview, in JPEG and WebP: 100 files a photo, over 20,000 in all, from photos that
        /// take a millisecond each.
        static func siteOverCloudflare() throws -> FixtureSite {
            let folder = try Fixtures.temporaryFolder()
            let photos = folder.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
            let jpeg = try Fixtures.data("images/photo-1.jpg")
            for index in 1...205 {
                try Fixtures.unique(jpeg, "copy \(index)")
                    .write(to: photos.appendingPathComponent(String(format: "p%03d.jpg", index)))
            }
            let config: [String: Any] = [
                "source": ["type": "folder", "path": "photos"], "pageSize": 50,
                "images": ["thumbnail": 16, "preview": 64, "widths": Array(17...63), "webp": true]
            ]
            try JSONSerialization.data(withJSONObject: config).write(
                to: folder.appendingPathComponent("site-config.json"))
            return FixtureSite(folder: folder)
        }

        static func run(_ arguments: [String]) throws -> (status: Int32, lines: [String], errors: String) {
            let result = BrowserTools.run([try IncrementalFixtures.cli().path] + arguments)
            let output = String(decoding: result.output, as: UTF8.self)
            return (result.status, output.split(separator: "\n").map(String.init), result.errors)
        }

        /// The amount `check` prints for a change: what follows its name on its line.
        static func saving(_ lines: [String], _ change: String) -> String? {
            lines.first { $0.hasPrefix("  \(change)  ") }.map {
                $0.dropFirst(change.count + 2).trimmingCharacters(in: .whitespaces)
            }
        }

        @Test func aSiteOverCloudflaresFreePlanIsReportedCheckedAndRefusedBeforeAnythingIsSent() throws {
            let site = try Self.siteOverCloudflare()
            let config = site.configURL.path
            let reportFile = site.folder.appendingPathComponent("report.json")
            let build = try Self.run(
                ["build", "--config", config, "--quiet", "--host", "cloudflare-pages", "--report", reportFile.path])
            #expect(build.status == 0, "a site over its host's limits is still built: \(build.errors)")
            let files = site.outputFiles()
            #expect(files.count > 20_000)
            let over = "\(Words.count(files.count)) files of 20,000"
            #expect(
                build.lines.contains {
                    $0.hasPrefix(
                        "cloudflare-pages (free): \(over) — over by \(Words.count(files.count - 20_000)); largest ")
                }, "\(build.lines)")
            #expect(build.errors.contains("warning: the site does not fit cloudflare-pages (free) (\(over)); "))
            let report = try JSONSerialization.jsonObject(with: Data(contentsOf: reportFile)) as? [String: Any]
            let host = try #require(report?["host"] as? [String: Any])
            #expect(host["files"] as? Int == files.count && host["over"] as? [String] == ["files"])
            let limits = try #require(host["limits"] as? [String: Any])
            #expect(limits["files"] as? Int == 20_000 && limits["totalBytes"] is NSNull, "no limit published: null")

            let check = try Self.run(["check", "--config", config, "--host", "cloudflare-pages"])
            #expect(check.status == 1, "\(check.errors)")
            func count(_ matches: (String) -> Bool) -> Int { files.count { matches(SiteMeasure.name(of: $0)) } }
            let webp = count { $0.hasSuffix(".webp") }
            #expect(Self.saving(check.lines, "images.webp: false")?.hasPrefix("\(Words.count(webp)) files, ") == true)
            for width in [63, 40, 17] {
                let made = count { SiteInventoryName.width(of: $0) == width }
                #expect(made == 2 * 205)
                #expect(
                    Self.saving(check.lines, "images.widths without \(width)")?.hasPrefix(
                        "\(Words.count(made)) files, about ")
                        == true, "\(width): \(check.lines)")
            }
            let originals = count { $0.hasPrefix("original.") }
            #expect(originals == 205)
            #expect(
                Self.saving(check.lines, "images.publishOriginals: false")?.hasPrefix(
                    "\(Words.count(originals)) files, ")
                    == true)
            #expect(
                check.lines.contains {
                    $0.hasPrefix(
                        "enough alone: images.webp: false (leaves \(Words.count(files.count - webp)) of 20,000 files")
                }, "\(check.lines)")
            #expect(check.lines.contains { $0.hasPrefix(#"or "deploy": {"plan": "paid"}"#) })

            let paid = try Self.run(["check", "--config", config, "--host", "cloudflare-pages", "--plan", "paid"])
            #expect(paid.status == 0 && paid.lines.last == "the site fits cloudflare-pages (paid)", "\(paid.lines)")
            let every = try Self.run(["check", "--config", config])
            #expect(every.status == 0 && every.lines.count == HostChoice.all.count, "\(every.lines)")
            #expect(
                every.lines.contains { $0.hasPrefix("netlify: \(Words.count(files.count)) files, no limit published") })

            let target = try Fixtures.temporaryFolder().appendingPathComponent("pages")
            try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            let deployed = site.folder.appendingPathComponent(".galleryssg/deployed")
            for extra in [[], ["--force"]] {
                let deploy = try Self.run(
                    ["deploy", "file://\(target.path)", "--config", config, "--host", "cloudflare-pages"] + extra)
                #expect(deploy.status == 1, "\(extra)")
                #expect(
                    deploy.errors.hasPrefix(
                        "error: cloudflare-pages (free) cannot take the site in \(site.output.path) (\(over)); nothing was sent."
                    ), "\(deploy.errors)")
                #expect(deploy.errors.contains("enough alone: images.webp: false"))
                #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty, "nothing was sent")
                #expect(!FileManager.default.fileExists(atPath: deployed.path))
            }
            let dry = try Self.run([
                "deploy", "file://\(target.path)", "--config", config, "--host", "cloudflare-pages", "--dry-run"
            ])
            #expect(dry.status == 0 && dry.errors.contains("warning: cloudflare-pages (free): \(over) — over by "))
            #expect(try FileManager.default.contentsOfDirectory(atPath: target.path).isEmpty)

            // Named in the config, the host needs no option, and the plan can come from there too.
            var settings = try JSONSerialization.jsonObject(with: Data(contentsOf: site.configURL)) as! [String: Any]
            settings["deploy"] = ["target": "file://\(target.path)", "host": "cloudflare-pages"]
            try JSONSerialization.data(withJSONObject: settings).write(to: site.configURL)
            #expect(try Self.run(["check", "--config", config]).status == 1)
            #expect(try Self.run(["deploy", "--config", config]).status == 1)
            let folder = try Self.run(["deploy", "--config", config, "--host", "folder", "--dry-run"])
            #expect(folder.status == 0 && folder.errors.isEmpty, "a folder has no limits: \(folder.errors)")
            #expect(
                folder.lines.last?.hasPrefix("planned file://\(target.path): would upload \(files.count) (") == true)
        }

        @Test func checkNeedsABuiltSiteAndAKnownHost() async throws {
            let site = try FixtureSite.make(entries: Array(IncrementalFixtures.five.prefix(2)))
            let config = site.configURL.path
            let unbuilt = try Self.run(["check", "--config", config, "--host", "netlify"])
            #expect(unbuilt.status == 2)
            #expect(
                unbuilt.errors
                    == "error: no built site in \(site.output.path); run galleryssg build --config \(config) first\n")
            let misspelt = try Self.run(["check", "--config", config, "--host", "netlfy"])
            #expect(
                misspelt.status == 2
                    && misspelt.errors.contains(
                        #"--host: "netlfy" is not a host galleryssg knows the limits of; did you mean "netlify"?"#)
            )
            #expect(try Self.run(["build", "--config", config, "--plan", "gold"]).status == 2)

            let build = try Self.run(["build", "--config", config, "--quiet"])
            #expect(
                build.status == 0 && !build.lines.contains { $0.contains("no limit published") }, "no host, no line")
            let fits = try Self.run(["check", "--config", config, "--host", "netlify"])
            #expect(fits.status == 0 && fits.lines.last == "the site fits netlify", "\(fits.lines)")
            #expect(
                fits.lines.first?.hasPrefix(
                    "netlify: \(Words.count(site.outputFiles().count)) files, no limit published; ") == true)
        }
    }
}

/// The width in a derivative's name (`63x39.webp` → 63), for counting the files a width made.
private enum SiteInventoryName {
    static func width(of name: String) -> Int? {
        guard let x = name.firstIndex(of: "x"), name.hasSuffix(".jpg") || name.hasSuffix(".webp") else { return nil }
        return Int(name[..<x])
    }
}
