import Foundation
import GalleryConfig
import GalleryPipeline
import Testing

/// The photographer's library of Fixtures/library/Photos (made by make-library.py), built as a
/// folder source: every file is a photo page or a reported skip, titles and captions come from the
/// files in precedence order, albums nest, and no published file carries a position or a serial.
@Suite struct LibraryTests {
    struct Site {
        let folder: URL
        let report: BuildReport
        var output: URL { folder.appendingPathComponent("public") }

        func read(_ path: String) throws -> String {
            try String(contentsOf: output.appendingPathComponent(path), encoding: .utf8)
        }
    }

    static func build() async throws -> Site {
        let folder = try Fixtures.temporaryFolder()
        let config: [String: Any] = [
            "title": "Library", "source": ["type": "folder", "path": Fixtures.url("library/Photos").path],
            "images": ["thumbnail": 64, "preview": 96, "widths": [Int]()]
        ]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        let loaded = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"), environment: [:])
        return Site(folder: folder, report: try await Build(config: loaded, options: BuildOptions(jobs: 2)).run())
    }

    /// The photo ids of a grid or album page's tiles, in order.
    static func tiles(_ html: String) -> [String] {
        html.matches(of: /class="tile" href="[^"]*photos\/([^\/"]+)\/index.html"/).map { String($0.1) }
    }

    @Test func everyFileIsAPhotoPageOrAReportedSkip() async throws {
        let site = try await Self.build()
        let report = site.report
        #expect(report.photosPublished == 14, "\(report.failures)")
        // IMG_0042.CR2 is 12 bytes that start as a Canon raw does: read as a raw, and reported as LibRaw finds it.
        #expect(Set(report.failures.map(\.id)) == ["portfolio-img-0042", "Portfolio/notes.txt"])
        #expect(
            report.failures.first { $0.id == "portfolio-img-0042" }?.reason.hasPrefix("camera raw: LibRaw failed")
                == true,
            "\(report.failures)")
        #expect(
            Set(report.ignored.map(\.path)) == [
                "2024/Iceland/Day 1/IMG_1004.md", "2024/Iceland/Day 2/waterfall.jpg.xmp", "2024/Iceland/index.md",
                "2025/Family/index.md", "2025/Family/.DS_Store", "2025/Family/private.jpg", "Thumbs.db"
            ])
        #expect(report.ignored.first { $0.path == "2025/Family/private.jpg" }?.reason.tally == .hiddenPhoto)
        // Junk bytes before a marker decode as browsers show them, with a warning naming the file.
        #expect(report.warnings.map(\.id) == ["portfolio-retouched"], "\(report.warnings)")
        #expect(report.warnings.first?.reason.contains("extraneous bytes before marker") == true)
        #expect(report.warnings.first?.location?.hasSuffix("Portfolio/retouched.jpg") == true)
        for id in [
            "2024-iceland-day-1-harbour", "2024-iceland-day-1-church", "2024-iceland-day-1-img-1003",
            "2024-iceland-day-1-img-1004", "2024-iceland-day-2-geyser", "2024-iceland-day-2-waterfall",
            "2024-iceland-day-2-ice", "2025-family-dog", "2025-family-kids", "2025-family-party",
            "portfolio-scan", "portfolio-best", "portfolio-retouched", "portfolio-capture-one"
        ] {
            #expect(
                FileManager.default.fileExists(
                    atPath: site.output.appendingPathComponent("photos/\(id)/index.html").path), "\(id)")
        }
        #expect(
            !FileManager.default.fileExists(
                atPath: site.output.appendingPathComponent("photos/2025-family-private").path))
    }

    @Test func titlesCaptionsAndTagsComeFromTheFilesInPrecedenceOrder() async throws {
        let site = try await Self.build()
        func page(_ id: String) throws -> String { try site.read("photos/\(id)/index.html") }
        // XMP over IPTC (no IPTC digest); EXIF's caption is a camera's placeholder, so it counts as none.
        let harbour = try page("2024-iceland-day-1-harbour")
        #expect(harbour.contains("<title>Harbour at dawn"))
        #expect(harbour.contains("Boats before sunrise."))
        #expect(!harbour.contains("caption loses") && !harbour.contains("OLYMPUS"))
        #expect(harbour.contains("Ásta Photographer"))
        #expect(harbour.contains("boats"))
        // IPTC, in UTF-8, over EXIF's placeholder caption.
        let church = try page("2024-iceland-day-1-church")
        #expect(church.contains("<title>Hallgrímskirkja"))
        #expect(church.contains("The church on the hill.") && !church.contains("SONY DSC"))
        #expect(church.contains("Reykjavík"))
        #expect(church.contains("Jón Jónsson"))
        // EXIF's caption and artist; the file name as the title of last resort.
        let lava = try page("2024-iceland-day-1-img-1003")
        #expect(lava.contains("<title>IMG 1003"))
        #expect(lava.contains("Lava field"))
        #expect(lava.contains("Exif Artist"))
        // A Markdown sidecar over the file's XMP.
        let puffins = try page("2024-iceland-day-1-img-1004")
        #expect(puffins.contains("<title>Puffins"))
        #expect(puffins.contains("<strong>cliffs</strong>"))
        #expect(puffins.contains("birds"))
        #expect(!puffins.contains("loses"))
        // An .xmp sidecar over the file's IPTC.
        let waterfall = try page("2024-iceland-day-2-waterfall")
        #expect(waterfall.contains("<title>Skógafoss"))
        #expect(waterfall.contains("south coast"))
        #expect(!waterfall.contains("loses"))
        // XMP inside a HEIC, a WebP and a TIFF.
        #expect(try page("2024-iceland-day-2-geyser").contains("<title>Strokkur"))
        #expect(try page("2025-family-dog").contains("<title>Our dog"))
        #expect(try page("portfolio-scan").contains("<title>Scanned print"))
        // Malformed XMP (a property written twice) counts as none: the EXIF caption shows.
        #expect(try page("portfolio-capture-one").contains("Kite over the dunes"))
        // A symlink publishes the photo it points at, in the album it sits in.
        #expect(try page("portfolio-best").contains("<title>Harbour at dawn"))
    }

    @Test func noPublishedFileCarriesAPositionOrASerialNumber() async throws {
        let site = try await Self.build()
        let secrets = PublishedOriginalTests.secrets + ["64 deg", "64.3128", "20.3003", "GPSLatitude"]
        var checked = 0
        let walker = FileManager.default.enumerator(at: site.output, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = walker?.nextObject() as? URL {
            guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
            let data = try Data(contentsOf: url)
            for secret in secrets {
                #expect(data.range(of: Data(secret.utf8)) == nil, "\(url.path) contains \(secret)")
            }
            if ["jpg", "webp", "png"].contains(url.pathExtension), let tags = try Exiftool.tags(of: url) {
                #expect(!tags.contains { $0.contains("GPS") || $0.contains("SerialNumber") }, "\(url.path): \(tags)")
            }
            checked += 1
        }
        #expect(checked > 40)
        // The JPEG original is published, stripped; the HEIC's is not (its page links the largest derivative).
        #expect(
            FileManager.default.fileExists(
                atPath: site.output.appendingPathComponent("photos/2024-iceland-day-1-harbour/original.jpg").path))
        #expect(
            !FileManager.default.fileExists(
                atPath: site.output.appendingPathComponent("photos/2024-iceland-day-2-geyser/original.heic").path))
    }

    @Test func albumsNestWithTheirOwnPagesBreadcrumbsAndCards() async throws {
        let site = try await Self.build()
        // The albums index shows the top level only, each card with its cover and counts.
        let index = try site.read("albums/index.html")
        for top in ["2024", "2025", "portfolio"] {
            #expect(index.contains("href=\"../albums/\(top)/index.html\""), "\(top)")
        }
        #expect(!index.contains("albums/2024/iceland/index.html"))
        #expect(index.contains("<span class=\"name\">2024</span> <span class=\"count\">7 photos · 1 album</span>"))
        // 2025's cover is its Family album's, which index.md sets to dog.webp.
        #expect(
            index.contains("href=\"../albums/2025/index.html\" title=\"2025\"><img src=\"../photos/2025-family-dog/"))

        // An album of albums: breadcrumbs, title and Markdown description from index.md, sub-album cards.
        let iceland = try site.read("albums/2024/iceland/index.html")
        #expect(
            iceland.contains(
                "<li><a href=\"../../../albums/index.html\">Albums</a></li><li><a href=\"../../../albums/2024/index.html\">2024</a></li><li aria-current=\"page\">Iceland, ring road</li>"
            ))
        #expect(iceland.contains("<h1 class=\"gallery-heading\">Iceland, ring road</h1>"))
        #expect(iceland.contains("<p>Ten days around the <em>ring road</em>.</p>"))
        #expect(iceland.contains("<span class=\"name\">Day 1</span> <span class=\"count\">4 photos</span>"))
        #expect(iceland.contains("<span class=\"name\">Day 2</span> <span class=\"count\">3 photos</span>"))
        #expect(Self.tiles(iceland).isEmpty)
        // Its `sort: name` orders the sub-albums too (by date, Day 2 would come first).
        let day1Card = try #require(iceland.range(of: ">Day 1</span>"))
        let day2Card = try #require(iceland.range(of: ">Day 2</span>"))
        #expect(day1Card.lowerBound < day2Card.lowerBound)

        // Day 1 has no index.md: it takes Iceland's `sort: name`, where the site sorts newest first.
        let day1 = try site.read("albums/2024/iceland/day-1/index.html")
        #expect(
            Self.tiles(day1) == [
                "2024-iceland-day-1-church", "2024-iceland-day-1-harbour", "2024-iceland-day-1-img-1003",
                "2024-iceland-day-1-img-1004"
            ])
        #expect(
            day1.contains(
                "<li><a href=\"../../../../albums/2024/iceland/index.html\">Iceland, ring road</a></li><li aria-current=\"page\">Day 1</li>"
            ))

        // Family: newest first, private.jpg hidden, kept off the home grid.
        let family = try site.read("albums/2025/family/index.html")
        #expect(Self.tiles(family) == ["2025-family-dog", "2025-family-kids", "2025-family-party"])
        let home = try site.read("index.html")
        #expect(!Self.tiles(home).contains { $0.hasPrefix("2025-family") })
        #expect(Self.tiles(home).first == "2024-iceland-day-2-geyser", "newest first: \(Self.tiles(home))")

        // Every photo page names its album path in breadcrumbs.
        let harbour = try site.read("photos/2024-iceland-day-1-harbour/index.html")
        #expect(
            harbour.contains(
                "<li><a href=\"../../albums/2024/iceland/day-1/index.html\">Day 1</a></li><li aria-current=\"page\">Harbour at dawn</li>"
            ))
    }

    /// `--strict` fails a build whose photos were all published but one with a decoder warning,
    /// and the warning reaches stderr on a rebuild too, when nothing is decoded again.
    @Test func strictCountsDecoderWarnings() async throws {
        let site = try await Self.build()
        for attempt in 1...2 {
            let (status, text) = try IncrementalFixtures.run([
                "build", "--config",
                site.folder.appendingPathComponent("site-config.json").path, "--strict"
            ])
            #expect(status == 3, "attempt \(attempt): \(text)")
            #expect(
                text.contains("portfolio-retouched") && text.contains("extraneous bytes"), "attempt \(attempt): \(text)"
            )
            // exempi prints the XMP Toolkit's errors to stderr; none of it may reach the user.
            #expect(!text.contains("Duplicate property"), "attempt \(attempt): \(text)")
        }
    }
}
