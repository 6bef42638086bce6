import Foundation
import GalleryConfig
import GalleryOutput
import GalleryPipeline
import GalleryRender

/// A whole site in a temporary folder: photos copied from Tests/Fixtures/images, a manifest and a config.
struct FixtureSite {
    let folder: URL
    var configURL: URL { folder.appendingPathComponent("site-config.json") }
    var output: URL { folder.appendingPathComponent("public") }

    /// Manifest entries; `image` names a file in Tests/Fixtures/images.
    static let hostileTitle = #"<script>alert("x")</script> & "><img src=x onerror=alert(1)>"#

    static var defaultEntries: [[String: Any]] {
        [
            [
                "id": "one", "title": hostileTitle, "image": "photos/photo-1.jpg",
                "description":
                    "Hello <iframe src=\"https://evil.example\"></iframe> [click](javascript:alert(1)) ![pixel](https://tracker.example/p.gif)",
                "author": "Ana <b>Bold</b>", "tags": ["sea", "<tag>"], "license": "CC-BY-4.0",
                "takenAt": "2021-06-01T10:20:00+02:00"
            ],
            ["id": "two", "title": "Two", "image": "photos/photo-2.jpg", "album": "Album A"],
            ["id": "broken", "title": "Broken", "image": "photos/truncated.jpg"],
            ["id": "three", "title": "Three", "image": "photos/photo-3.jpg"],
            ["id": "text", "title": "Not a photo", "image": "photos/not-an-image.jpg"],
            ["id": "four", "image": "photos/photo-4.jpg", "author": "Bo"],
            ["id": "five", "title": "Five", "image": "photos/photo-5.jpg"],
            ["id": "six", "title": "Six", "image": "photos/photo-6.jpg"],
            ["id": "png", "title": "Transparent", "image": "photos/half-transparent.png"],
            ["id": "../escape", "title": "Bad id", "image": "photos/photo-1.jpg"],
            ["id": "outside", "title": "Outside", "image": "../../etc/passwd"],
            ["id": "missing", "title": "Missing", "image": "photos/does-not-exist.jpg"]
        ]
    }

    static func make(entries: [[String: Any]] = defaultEntries, config: [String: Any] = [:]) throws -> FixtureSite {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let images = Fixtures.url("images")
        for name in try FileManager.default.contentsOfDirectory(atPath: images.path) {
            try FileManager.default.copyItem(
                at: images.appendingPathComponent(name), to: photos.appendingPathComponent(name))
        }
        let manifest = try JSONSerialization.data(withJSONObject: ["photos": entries], options: [.prettyPrinted])
        try manifest.write(to: folder.appendingPathComponent("manifest.json"))
        var settings: [String: Any] = [
            "title": "Fixture <Gallery>", "pageSize": 3, "baseURL": "https://example.com/gallery/",
            "source": ["type": "manifest", "path": "manifest.json"],
            "images": ["thumbnail": 64, "preview": 120, "widths": [80]]
        ]
        settings.merge(config) { _, new in new }
        try JSONSerialization.data(withJSONObject: settings).write(
            to: folder.appendingPathComponent("site-config.json"))
        return FixtureSite(folder: folder)
    }

    func build() async throws -> BuildReport {
        try await Build(config: try SiteConfig.load(from: configURL, environment: [:]), options: BuildOptions(jobs: 2))
            .run()
    }

    func read(_ path: String) throws -> String {
        try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
    }

    /// Every file below the output, relative to it.
    func outputFiles() -> [String] {
        outputFiles(in: output)
    }

    /// The index pages the last build gave folders that have no page of their own (`FolderIndexes`),
    /// which are not the site's pages: no sitemap or page count has them.
    func folderIndexPages() throws -> Set<String> {
        let config = try SiteConfig.load(from: configURL, environment: [:])
        return Set(
            (config.siteBook.record(of: output)?.folderIndexes ?? []).map {
                $0.isEmpty ? "index.html" : $0 + "/index.html"
            })
    }

    /// Every file below `folder`, relative to it, sorted; the site's marker and file list
    /// (`SiteMarker.names`), which change with every build and are never deployed, are left out.
    func outputFiles(in folder: URL) -> [String] {
        let root = folder.standardizedFileURL.path
        let walker = FileManager.default.enumerator(atPath: root)
        var files: [String] = []
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                !SiteMarker.names.contains(path)
            {
                files.append(path)
            }
        }
        return files.sorted()
    }

    /// Every internal `href`, `src` and `srcset` target of every page that does not resolve to a file.
    func brokenLinks() throws -> [String] {
        var broken: [String] = []
        let pattern = try NSRegularExpression(pattern: #"(href|src|srcset)="([^"]*)""#)
        for page in outputFiles() where page.hasSuffix(".html") {
            let html = try read(page)
            let base = output.appendingPathComponent(page).deletingLastPathComponent()
            for match in pattern.matches(in: html, range: NSRange(html.startIndex..., in: html)) {
                let attribute = String(html[Range(match.range(at: 1), in: html)!])
                let value = String(html[Range(match.range(at: 2), in: html)!]).replacingOccurrences(
                    of: "&amp;", with: "&")
                let targets =
                    attribute == "srcset"
                    ? value.split(separator: ",").compactMap { $0.split(separator: " ").first.map(String.init) }
                    : [value]
                for target in targets {
                    if target.hasPrefix("https://") || target.hasPrefix("http://") || target.hasPrefix("#")
                        || target.hasPrefix("data:")
                    {
                        continue
                    }
                    let path = String(target.split(separator: "#", omittingEmptySubsequences: false)[0])
                    let resolved = base.appendingPathComponent(path).standardizedFileURL.path
                    var isDirectory: ObjCBool = false
                    let exists =
                        FileManager.default.fileExists(atPath: resolved, isDirectory: &isDirectory)
                        && !isDirectory.boolValue
                    if !exists || !resolved.hasPrefix(output.standardizedFileURL.path) {
                        broken.append("\(page): \(target)")
                    }
                }
            }
        }
        return broken
    }
}
