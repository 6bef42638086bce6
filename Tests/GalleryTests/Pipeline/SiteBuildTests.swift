import Foundation
import GalleryImaging
import GalleryModel
import GalleryOutput
import GalleryPipeline
import GalleryProviders
import GalleryRender
import Testing

@Suite("Whole-site builds")
struct SiteBuildTests {
    /// Entries are mapped while the manifest is decoded; an entry that is not an object is
    /// reported by its index, and the entries after it still line up.
    @Test func nonObjectEntriesAreReportedInPlace() async throws {
        let site = try FixtureSite.make(entries: [])
        let text =
            #"{"photos": [{"id": "one", "image": "photos/photo-1.jpg"}, 42, "text", [1, 2], null, "#
            + #"{"id": "two", "image": "photos/photo-2.jpg", "tags": ["x", 1, true, null, {"k": 1}], "#
            + #""author": {"name": "Ana", "url": "https://example.com/ana"}}]}"#
        try Data(text.utf8).write(to: site.folder.appendingPathComponent("manifest.json"))
        let report = try await site.build()
        #expect(report.photosPublished == 2)
        let reasons = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.id, $0.reason) })
        #expect(
            reasons == [
                "photos[1]": "expected an object, got a number", "photos[2]": "expected an object, got a string",
                "photos[3]": "expected an object, got an array", "photos[4]": "expected an object, got null"
            ])
        #expect(try site.read("photos/two/index.html").contains("Ana"))
    }

    @Test func buildsPagedGalleryAndSkipsBadPhotos() async throws {
        let site = try FixtureSite.make()
        let report = try await site.build()

        // 12 entries: 7 good photos, 5 bad ones, each reported with its stage.
        #expect(report.photosInManifest == 12)
        #expect(report.photosPublished == 7)
        #expect(report.photosSkipped == 5)
        let failures = Dictionary(uniqueKeysWithValues: report.failures.map { ($0.id, $0) })
        #expect(failures["broken"]?.stage == .imaging)
        #expect(
            failures["broken"]?.reason.contains("damaged or truncated") == true, "\(failures["broken"]?.reason ?? "")")
        #expect(failures["text"]?.reason == "a text file, not an image")
        #expect(failures["text"]?.firstBytes == "74 68 69 73 20 69 73 20")
        #expect(failures["broken"]?.firstBytes == nil)
        #expect(failures["missing"]?.stage == .fetch)
        #expect(failures["missing"]?.location?.hasSuffix("photos/does-not-exist.jpg") == true)
        #expect(failures["outside"]?.stage == .manifest)
        #expect(failures["outside"]?.reason.contains("leaves the manifest's folder") == true)
        #expect(failures["photos[9]"]?.reason.contains("may only hold letters") == true)

        // 7 photos at 3 a page: index.html plus page/2 and page/3; one album ("Album A") and two
        // tags ("sea", "<tag>") with their indexes, and 404.html.
        #expect(report.pages == 3 + 7 + 2 + 3 + 1)
        let files = site.outputFiles()
        #expect(files.contains("index.html"))
        #expect(files.contains("page/2/index.html"))
        #expect(files.contains("page/3/index.html"))
        #expect(!files.contains("page/4/index.html"))
        #expect(!files.contains("page/1/index.html"))
        for id in ["one", "two", "three", "four", "five", "six", "png"] {
            #expect(files.contains("photos/\(id)/index.html"), "photo page for \(id)")
        }
        #expect(!files.contains { $0.hasPrefix("photos/broken") || $0.contains("escape") })

        let page2 = try site.read("page/2/index.html")
        #expect(page2.contains(#"<link rel="prev" href="../../index.html">"#))
        #expect(page2.contains(#"<link rel="next" href="../../page/3/index.html">"#))
        #expect(page2.contains(#"<span aria-current="page">2</span>"#))
        #expect(page2.components(separatedBy: "class=\"tile\"").count - 1 == 3)
        #expect(page2.contains(#"<link rel="canonical" href="https://example.com/gallery/page/2/">"#))
        let index = try site.read("index.html")
        #expect(!index.contains("rel=\"prev\""))

        let broken = try site.brokenLinks()
        #expect(broken == [], "\(broken)")
    }

    @Test func hostileTextIsEscapedAndMarkdownIsSafe() async throws {
        let site = try FixtureSite.make()
        _ = try await site.build()
        let allowedScripts = [
            "<script>\ndocument.documentElement.className = \"js\";\n",
            #"<script src=""#, #"<script type="application/ld+json">"#
        ]
        for page in ["index.html", "photos/one/index.html", "tags/tag/index.html", "albums/index.html", "404.html"] {
            let html = try site.read(page)
            var rest = html[...]
            while let start = rest.range(of: "<script") {
                let tail = rest[start.lowerBound...]
                #expect(
                    allowedScripts.contains { tail.hasPrefix($0) },
                    "\(page) has an unexpected script: \(tail.prefix(60))")
                rest = rest[start.upperBound...]
            }
            #expect(!html.contains("<script>alert"), "\(page) has an injected script element")
            #expect(!html.contains("<img src=x"), "\(page) has an injected img")
            #expect(!html.contains("<iframe"), "\(page) has an iframe")
            #expect(!html.contains("javascript:"), "\(page) has a javascript: URL")
            #expect(!html.contains("tracker.example/p.gif\" alt"), "\(page) embeds a remote image")
            #expect(!html.contains("<b>Bold"), "\(page) passes author HTML through")
        }
        let photo = try site.read("photos/one/index.html")
        #expect(
            photo.contains(
                "<h1>&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &quot;&gt;&lt;img src=x onerror=alert(1)&gt;</h1>"
            ))
        #expect(photo.contains(#"alt="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"#))
        #expect(photo.contains(#"<li><a href="../../tags/tag/index.html" rel="tag">&lt;tag&gt;</a></li>"#))
        // JSON-LD holds the hostile title, but nothing in it can close the script element.
        let jsonLD = try #require(photo.firstMatch(of: /<script type="application\/ld\+json">(.*?)<\/script>/))
        #expect(!jsonLD.1.contains("<") && !jsonLD.1.contains(">") && !jsonLD.1.contains("&"))
        let object = try JSONSerialization.jsonObject(with: Data(jsonLD.1.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == FixtureSite.hostileTitle)
        #expect(object?["@type"] as? String == "ImageObject")
        #expect(photo.contains(#"<a href="https://tracker.example/p.gif">pixel</a>"#))
        #expect(photo.contains(#"<time datetime="2021-06-01T10:20:00+02:00">1 June 2021, 10:20</time>"#))
        #expect(photo.contains(#"<a href="https://creativecommons.org/licenses/by/4.0/" rel="license">CC-BY-4.0</a>"#))
        #expect(photo.contains("<title>&lt;script&gt;"))
        // An untitled photo gets "Photo by …" as alt text.
        #expect(try site.read("photos/four/index.html").contains(#"alt="Photo by Bo""#))
    }

    @Test func everyImageHasSizeAndAltMatchingTheFile() async throws {
        let site = try FixtureSite.make()
        _ = try await site.build()
        let imgPattern = try NSRegularExpression(pattern: #"<img [^>]*>"#)
        for page in site.outputFiles() where page.hasSuffix(".html") {
            let html = try site.read(page)
            for match in imgPattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
                let tag = String(html[Range(match.range, in: html)!])
                #expect(
                    tag.contains(" width=\"") && tag.contains(" height=\"") && tag.contains(" alt=\""),
                    "\(page): \(tag)")
            }
        }
        // The declared size of the preview is the real size of the file.
        let photo = try site.read("photos/two/index.html")
        let src = try #require(
            photo.firstMatch(
                of: /<img class="main" src="\.\.\/\.\.\/(photos\/two\/[0-9x]+\.jpg)"[^>]* width="(\d+)" height="(\d+)"/)
        )
        let data = try Data(contentsOf: site.output.appendingPathComponent(String(src.1)))
        let header = try JPEGCodec.header(data)
        #expect(header.size == PixelSize(width: Int(src.2)!, height: Int(src.3)!))
        #expect(header.size.longEdge == 120)
    }

    @Test func failedBuildLeavesThePreviousSiteIntact() async throws {
        let site = try FixtureSite.make()
        _ = try await site.build()
        let before = try site.read("index.html")
        let filesBefore = site.outputFiles()

        // Break the theme: the next build fails at the theme step.
        let templates = site.folder.appendingPathComponent("Templates")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try "{{#unclosed}}".write(
            to: templates.appendingPathComponent("grid.mustache"), atomically: true, encoding: .utf8)
        await #expect(throws: BuildError.self) { _ = try await site.build() }
        try FileManager.default.removeItem(at: templates)

        // Every photo broken: the images step fails.
        let broken = try FixtureSite.make(entries: [["id": "a", "image": "photos/truncated.jpg"]])
        try FileManager.default.removeItem(at: broken.folder.appendingPathComponent("manifest.json"))
        try FileManager.default.copyItem(
            at: broken.folder.appendingPathComponent("photos"), to: site.folder.appendingPathComponent("photos-b"))
        try JSONSerialization.data(withJSONObject: ["photos": [["id": "a", "image": "photos/truncated.jpg"]]])
            .write(to: site.folder.appendingPathComponent("manifest.json"))
        do {
            _ = try await site.build()
            Issue.record("expected the build to fail")
        } catch let error as BuildError {
            #expect(error.step == .images)
            #expect(error.reason.hasPrefix("none of the 1 photos could be processed"))
        }
        #expect(try site.read("index.html") == before)
        #expect(site.outputFiles() == filesBefore)
        // No staging folder is left; `.public.spare` (the site before last, kept to speed up the next
        // build) is not a leftover.
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.folder.path)
            .filter { $0.hasPrefix(".public") && $0 != ".public.spare" }
        #expect(leftovers == [])
    }

    @Test func identicalInputsGiveByteIdenticalSites() async throws {
        let site = try FixtureSite.make()
        _ = try await site.build()
        let first = try site.outputFiles().map { ($0, try Data(contentsOf: site.output.appendingPathComponent($0))) }
        try FileManager.default.removeItem(at: site.output)
        _ = try await site.build()
        let second = try site.outputFiles().map { ($0, try Data(contentsOf: site.output.appendingPathComponent($0))) }
        #expect(first.map(\.0) == second.map(\.0))
        #expect(first.map(\.1) == second.map(\.1))
    }

    @Test func rebuildReplacesTheSiteAndDropsRemovedPhotos() async throws {
        let site = try FixtureSite.make()
        _ = try await site.build()
        try JSONSerialization.data(withJSONObject: [
            "photos": [["id": "solo", "title": "Solo", "image": "photos/photo-1.jpg"]]
        ])
        .write(to: site.folder.appendingPathComponent("manifest.json"))
        let report = try await site.build()
        #expect(report.photosPublished == 1)
        #expect(!site.outputFiles().contains("photos/one/index.html"))
        #expect(site.outputFiles().contains("photos/solo/index.html"))
        #expect(!site.outputFiles().contains("page/2/index.html"))
    }

    @Test func outputMayNotReplaceTheSiteFolder() async throws {
        let site = try FixtureSite.make(config: ["output": "."])
        do {
            _ = try await site.build()
            Issue.record("expected an error")
        } catch let error as BuildError {
            #expect(error.step == .output)
            #expect((error.underlying as? OutputError)?.kind == .misplaced, "\(error)")
        }
        #expect(FileManager.default.fileExists(atPath: site.folder.appendingPathComponent("manifest.json").path))
    }

    @Test func folderSourceMakesAlbumsFromSubfolders() async throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(
            at: photos.appendingPathComponent("Summer Trip"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.url("images/photo-1.jpg"), to: photos.appendingPathComponent("IMG_0001.jpg"))
        try FileManager.default.copyItem(
            at: Fixtures.url("images/photo-2.jpg"),
            to: photos.appendingPathComponent("Summer Trip/beach_day.JPG"))
        try FileManager.default.copyItem(
            at: Fixtures.url("images/not-an-image.jpg"), to: photos.appendingPathComponent(".hidden.jpg"))
        try "notes".write(to: photos.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let manifest = try await FolderProvider(folder: photos).fetchManifest()
        #expect(manifest.photos.map(\.id) == ["img-0001", "summer-trip-beach-day"])
        // The file name is the title of last resort: the file's own metadata comes first (see PhotoMetadata).
        #expect(manifest.photos.map(\.title) == [nil, nil])
        #expect(manifest.photos.map(\.fallbackTitle) == ["IMG 0001", "beach day"])
        #expect(manifest.photos.map(\.album) == [nil, "Summer Trip"])
        #expect(manifest.issues.map(\.item) == ["notes.txt"])
        #expect(manifest.ignored.map(\.path) == [".hidden.jpg"])
    }
}
