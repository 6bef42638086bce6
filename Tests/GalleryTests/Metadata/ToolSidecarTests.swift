import Foundation
import GalleryMetadata
import GalleryProviders
import Testing

/// XMP sidecars as Lightroom Classic, darktable, digiKam and osxphotos write and name them
/// (Tests/Fixtures/metadata/tools/SOURCES.md): each describes its photo, and none publishes a place.
@Suite struct ToolSidecarTests {
    static func library() throws -> URL {
        let root = try Fixtures.temporaryFolder().appendingPathComponent("photos")
        let files = FileManager.default
        let tools = Fixtures.url("metadata/tools")
        let jpeg = try Fixtures.data("images/photo-1.jpg")
        for tool in ["lightroom", "darktable", "digikam", "osxphotos"] {
            try files.createDirectory(at: root.appendingPathComponent(tool), withIntermediateDirectories: true)
            for name in try files.contentsOfDirectory(atPath: tools.appendingPathComponent(tool).path) {
                try files.copyItem(
                    at: tools.appendingPathComponent("\(tool)/\(name)"),
                    to: root.appendingPathComponent("\(tool)/\(name)"))
            }
        }
        // The raws are left out beside their exports; only their sidecars matter here.
        for (path, data) in [
            "lightroom/_DSF1234.RAF": Data("FUJIFILMCCD-RAW ".utf8), "lightroom/_DSF1234.jpg": jpeg,
            "darktable/IMG_0042.CR2": Data([0x49, 0x49, 0x2A, 0x00]), "darktable/IMG_0042.jpg": jpeg,
            "digikam/DSC_0100.JPG": jpeg, "osxphotos/IMG_4512.jpeg": jpeg
        ] {
            try data.write(to: root.appendingPathComponent(path))
        }
        return root
    }

    @Test func eachToolsSidecarDescribesItsPhoto() async throws {
        let root = try Self.library()
        let manifest = try await FolderProvider(folder: root).fetchManifest()
        #expect(manifest.issues.isEmpty, "\(manifest.issues)")
        #expect(manifest.warnings.isEmpty, "\(manifest.warnings)")
        let byID = Dictionary(uniqueKeysWithValues: manifest.photos.map { ($0.id, $0) })
        #expect(byID.count == 4, "\(byID.keys.sorted())")

        let lightroom = try #require(byID["lightroom-dsf1234"])
        #expect(lightroom.title == "Eiger north face")
        // Captions are plain text: their punctuation is escaped so that Markdown shows it as written.
        #expect(lightroom.description == PhotoMetadata.markdownLiteral("First snow, from Kleine Scheidegg."))
        #expect(lightroom.tags == ["Eiger", "mountains"] && lightroom.rating == 3)
        #expect(lightroom.takenAt?.hasPrefix("2021-10-02T09:12:44") == true, "\(lightroom.takenAt ?? "")")

        // darktable's own `darktable|format|cr2` and `darktable|changed` are not the photographer's tags.
        let darktable = try #require(byID["darktable-img-0042"])
        #expect(darktable.title == "Puffins at Látrabjarg" && darktable.rating == 4)
        #expect(darktable.tags == ["Iceland", "animals", "birds", "places", "puffin"], "\(darktable.tags)")
        #expect(darktable.author == "Ada Lovelace")
        #expect(darktable.takenAt?.hasPrefix("2024-06-01T18:04:12") == true, "\(darktable.takenAt ?? "")")

        let digikam = try #require(byID["digikam-dsc-0100"])
        #expect(digikam.title == "Reine at dawn" && digikam.rating == 5)
        #expect(digikam.tags == ["Lofoten", "Boats"])

        let osxphotos = try #require(byID["osxphotos-img-4512"])
        #expect(osxphotos.title == "Peonies" && osxphotos.rating == 5)
        #expect(osxphotos.description == PhotoMetadata.markdownLiteral("Grandma's garden in June."))
        #expect(osxphotos.tags == ["flowers", "garden"])
        #expect(osxphotos.takenAt?.hasPrefix("2022-06-14T17:45:03") == true, "\(osxphotos.takenAt ?? "")")

        // Three of them carry a place; a sidecar's location is never read.
        #expect(manifest.photos.allSatisfy { $0.location == nil })
        let ignored = Dictionary(uniqueKeysWithValues: manifest.ignored.map { ($0.path, $0.reason) })
        #expect(ignored["darktable/IMG_0042.CR2.xmp"] == .sidecarRead)
        #expect(ignored["lightroom/_DSF1234.xmp"] == .sidecarRead)
        #expect(ignored["darktable/IMG_0042.CR2"] == .rawBesideItsPhoto("IMG_0042.jpg"))
    }

    @Test func darktablesBookkeepingIsNoTag() {
        let hierarchical = ["animals|birds|puffin", "darktable|format|arw", "darktable|changed", "format"]
        #expect(
            DarktableTags.withoutBookkeeping(
                ["animals", "arw", "birds", "changed", "darktable", "format", "puffin", "darktable|exported"],
                hierarchical: hierarchical) == ["animals", "birds", "format", "puffin"])
        // Without darktable's hierarchical tags nothing is taken out.
        #expect(DarktableTags.withoutBookkeeping(["darktable", "jpg"], hierarchical: []) == ["darktable", "jpg"])
    }
}
