import Foundation
import Testing
@testable import GalleryCore

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
        let config: [String: Any] = ["title": "Library", "source": ["type": "folder", "path": Fixtures.url("library/Photos").path],
                                     "images": ["thumbnail": 64, "preview": 96, "widths": [Int]()]]
        try JSONSerialization.data(withJSONObject: config).write(to: folder.appendingPathComponent("site-config.json"))
        let loaded = try SiteConfig.load(from: folder.appendingPathComponent("site-config.json"), environment: [:])
        return Site(folder: folder, report: try await Build(config: loaded, options: BuildOptions(jobs: 2)).run())
    }

    @Test func everyFileIsAPhotoPageOrAReportedSkip() async throws {
        let site = try await Self.build()
        let report = site.report
        #expect(report.photosPublished == 12, "\(report.failures)")
        #expect(Set(report.failures.map(\.id)) == ["Portfolio/IMG_0042.CR2", "Portfolio/notes.txt"])
        #expect(Set(report.ignored.map(\.path)) == [
            "2024/Iceland/Day 1/IMG_1004.md", "2024/Iceland/Day 2/waterfall.jpg.xmp", "2024/Iceland/index.md",
            "2025/Family/index.md", "2025/Family/.DS_Store", "2025/Family/private.jpg", "Thumbs.db"])
        #expect(report.ignored.first { $0.path == "2025/Family/private.jpg" }?.reason.contains("hidden by") == true)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        for id in ["2024-iceland-day-1-harbour", "2024-iceland-day-1-church", "2024-iceland-day-1-img-1003",
                   "2024-iceland-day-1-img-1004", "2024-iceland-day-2-geyser", "2024-iceland-day-2-waterfall",
                   "2024-iceland-day-2-ice", "2025-family-dog", "2025-family-kids", "2025-family-party",
                   "portfolio-scan", "portfolio-best"] {
            #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("photos/\(id)/index.html").path), "\(id)")
        }
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("photos/2025-family-private").path))
    }

    @Test func titlesCaptionsAndTagsComeFromTheFilesInPrecedenceOrder() async throws {
        let site = try await Self.build()
        func page(_ id: String) throws -> String { try site.read("photos/\(id)/index.html") }
        // XMP over IPTC over EXIF.
        let harbour = try page("2024-iceland-day-1-harbour")
        #expect(harbour.contains("<title>Harbour at dawn"))
        #expect(harbour.contains("Boats before sunrise."))
        #expect(!harbour.contains("caption loses"))
        #expect(harbour.contains("Ásta Photographer"))
        #expect(harbour.contains("boats"))
        // IPTC, in UTF-8, over EXIF.
        let church = try page("2024-iceland-day-1-church")
        #expect(church.contains("<title>Hallgrímskirkja"))
        #expect(church.contains("The church on the hill."))
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
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent("photos/2024-iceland-day-1-harbour/original.jpg").path))
        #expect(!FileManager.default.fileExists(atPath: site.output.appendingPathComponent("photos/2024-iceland-day-2-geyser/original.heic").path))
    }
}
