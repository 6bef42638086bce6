import Foundation
import GalleryMetadata
import GalleryModel
import GalleryProviders
import Testing

/// Google Takeout's JSON sidecars in a folder source, read without configuration: the names Takeout
/// gives them (cut, numbered, supplemental), their fields, and an album's `metadata.json`; written
/// as Takeout writes them (Tests/Fixtures/takeout/SOURCES.md).
@Suite("Google Takeout sidecars")
struct TakeoutTests {
    static let library = Fixtures.url("takeout/Takeout/Google Photos")
    static let year = "Photos from 2019"

    static func manifest(peopleAsTags: Bool = false) async throws -> Manifest {
        var provider = FolderProvider(folder: library)
        provider.peopleAsTags = peopleAsTags
        return try await provider.fetchManifest()
    }

    static func photo(_ manifest: Manifest, _ path: String) throws -> Photo {
        try #require(manifest.photos.first { $0.image.description.hasSuffix("/" + path) }, "\(path)")
    }

    /// Every way Takeout names a sidecar, and the names that must not match.
    @Test func namesMatchAsTakeoutWritesThem() {
        let photos = [
            "IMG.jpg", "IMG(1).jpg", "IMG-edited.jpg", "IMG-bearbeitet(1).jpg", "PXL.jpg",
            "Screenshot_20190207_102421_com.snapchat.android.jpg", "Urlaub in Knaufspesch in der Schneifel (38).JPG",
            "IMG_20190101_123456789_BURST001_COVER.jpg", "metadata.jpg", "lone.jpg", "other.heic"
        ]
        let sidecars = [
            "IMG.jpg.json", "img.jpg(1).json", "PXL.jpg.supplemental-metadata.json",
            "Screenshot_20190207_102421_com.snapchat.androi.json",
            "Urlaub in Knaufspesch in der Schneifel (38).JP.json",
            "IMG_20190101_123456789_BURST001_COVER.jpg.supplemen.json", "metadata.json", "other.json", "lone.json"
        ]
        let found = TakeoutNames.match(photos: photos, sidecars: sidecars)
        #expect(
            found == [
                "IMG.jpg": "IMG.jpg.json", "IMG(1).jpg": "img.jpg(1).json", "IMG-edited.jpg": "IMG.jpg.json",
                "IMG-bearbeitet(1).jpg": "IMG.jpg.json", "PXL.jpg": "PXL.jpg.supplemental-metadata.json",
                "Screenshot_20190207_102421_com.snapchat.android.jpg":
                    "Screenshot_20190207_102421_com.snapchat.androi.json",
                "Urlaub in Knaufspesch in der Schneifel (38).JPG":
                    "Urlaub in Knaufspesch in der Schneifel (38).JP.json",
                "IMG_20190101_123456789_BURST001_COVER.jpg": "IMG_20190101_123456789_BURST001_COVER.jpg.supplemen.json"
            ])
    }

    /// Numbered sidecars carry the number after the cut; a short cut name never matches a longer photo.
    @Test func numberedAndCutNames() {
        let found = TakeoutNames.match(
            photos: ["IMG(1).jpg", "IMG(2).jpg", "IMG.jpg", "short.jpg"],
            sidecars: ["IMG.jpg.supplemental-metadata(1).json", "IMG.jpg.supp(2).json", "IMG.jpg.s.json", "sho.json"])
        #expect(
            found == [
                "IMG(1).jpg": "IMG.jpg.supplemental-metadata(1).json", "IMG(2).jpg": "IMG.jpg.supp(2).json",
                "IMG.jpg": "IMG.jpg.s.json"
            ])
        // Two photos whose names are cut to the same 46 characters: the sidecar goes to neither.
        let long = String(repeating: "x", count: 46)
        let ambiguous = TakeoutNames.match(photos: ["\(long)_a.jpg", "\(long)_b.jpg"], sidecars: ["\(long).json"])
        #expect(ambiguous.isEmpty)
    }

    /// The fields, each cleaned; 0,0 is no place; a file of another shape is nil, one not JSON an error.
    @Test func fieldsAreReadAndShapesTold() throws {
        let json = #"""
            {"title": "IMG_1.jpg", "description": " Dawn\u0007 ", "photoTakenTime": {"timestamp": "1560154445"},
             "geoData": {"latitude": 0.0, "longitude": 0.0}, "geoDataExif": {"latitude": 64.5, "longitude": -21},
             "people": [{"name": "Anna"}, {"name": 7}, {"name": "Anna"}, {"name": " "}], "favorited": "yes",
             "imageViews": "3", "someFutureKey": {"x": 1}}
            """#
        let sidecar = try #require(try TakeoutSidecar.parse(Data(json.utf8)))
        #expect(sidecar.kind == .photo && sidecar.description == "Dawn" && sidecar.people == ["Anna"])
        #expect(sidecar.takenAt == "2019-06-10T08:14:05Z")
        #expect(sidecar.location == GeoPoint(latitude: 64.5, longitude: -21))
        #expect(sidecar.photoTitle(fileName: "IMG_1(1).jpg") == nil)
        let none = try #require(try TakeoutSidecar.parse(Data(#"{"photoTakenTime": {"timestamp": 0}}"#.utf8)))
        #expect(none.takenAt == nil && none.location == nil)
        let album = try #require(
            try TakeoutSidecar.parse(Data(#"{"albumData": {"title": "Trip", "access": "protected"}}"#.utf8)))
        #expect(album.kind == .album && album.title == "Trip")
        #expect(try TakeoutSidecar.parse(Data(#"{"iso": 100}"#.utf8)) == nil)
        #expect(throws: (any Error).self) { try TakeoutSidecar.parse(Data("{not json".utf8)) }
    }

    /// A file over the cap is refused before it is parsed.
    @Test func oversizedFileIsRefused() throws {
        let folder = try Fixtures.temporaryFolder()
        let url = folder.appendingPathComponent("big.jpg.json")
        try Data(repeating: 0x20, count: TakeoutSidecar.maxBytes + 1).write(to: url)
        #expect(throws: MetadataFileError.self) { try TakeoutSidecar.read(url) }
        do {
            _ = try TakeoutSidecar.read(url)
        } catch let error as MetadataFileError {
            #expect(error.kind == .tooLarge && error.reason.contains("1024 KiB"))
        }
    }

    /// The fixture library: every photo with its sidecar's words, the album's metadata.json, every
    /// `.json` accounted for, and people only when asked.
    @Test func folderSourceReadsTheTakeout() async throws {
        let manifest = try await Self.manifest()
        #expect(manifest.photos.count == 10)
        let first = try Self.photo(manifest, "\(Self.year)/IMG_20190610_081405.jpg")
        #expect(first.title == nil && first.description == "Harbour at dawn" && first.tags.isEmpty)
        #expect(first.fallbackTakenAt == "2019-06-10T08:14:05Z" && first.takenAt == nil)
        #expect(first.location == GeoPoint(latitude: 64.1466, longitude: -21.9426))
        #expect(
            try Self.photo(manifest, "\(Self.year)/IMG_20190610_081405(1).jpg").description?.contains("second") == true)
        #expect(
            try Self.photo(manifest, "\(Self.year)/IMG_20190610_081405-edited.jpg").description == "Harbour at dawn")
        let lagoon = try Self.photo(manifest, "\(Self.year)/PXL_20190611_093000123.jpg")
        #expect(lagoon.title == "Glacier lagoon" && lagoon.description == #"Ice \*floating\* by"#)
        for (name, words) in [
            ("IMG_20190101_123456789_BURST001_COVER.jpg", "Burst cover"),
            ("Screenshot_20190207_102421_com.snapchat.android.jpg", "Screenshot"),
            ("IMG_20191224_180000_LONG_EXPOSURE_SHOT.jpg", "Cut later"),
            ("IMG_20190506_070809(1).jpg", "second photo")
        ] {
            #expect(try Self.photo(manifest, "\(Self.year)/\(name)").description?.contains(words) == true, "\(name)")
        }
        let beach = try Self.photo(manifest, "Trip to Iceland/IMG_0042.JPG")
        #expect(beach.location == GeoPoint(latitude: 63.4043, longitude: -19.0446) && beach.tags.isEmpty)
        let album = try #require(manifest.albums["Trip to Iceland"])
        #expect(album.title == "Iceland, June 2019" && album.description?.contains("ten days") == true)

        let reasons = Dictionary(uniqueKeysWithValues: manifest.ignored.map { ($0.path, $0.reason) })
        #expect(reasons["Trip to Iceland/metadata.json"] == .sidecarRead)
        #expect(reasons["\(Self.year)/deleted-photo.jpg.json"] == .sidecarWithoutPhoto)
        #expect(reasons.filter { $0.key.hasSuffix(".json") && $0.value == .sidecarRead }.count == 10)
        #expect(manifest.issues.map(\.item) == ["\(Self.year)/camera-settings.json"])
        #expect(manifest.issues.first?.reason.contains("JSON of another shape") == true)

        let tagged = try await Self.manifest(peopleAsTags: true)
        #expect(try Self.photo(tagged, "\(Self.year)/IMG_20190610_081405.jpg").tags == ["Anna"])
        #expect(try Self.photo(tagged, "Trip to Iceland/IMG_0042.JPG").tags == ["Anna", "Björn"])
    }

    /// An `index.md` beside `metadata.json` wins field by field; a `.md` sidecar wins over the JSON.
    @Test func ownFilesWinOverTakeouts() async throws {
        let folder = try Fixtures.temporaryFolder()
        let album = folder.appendingPathComponent("Trip")
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.url("images/photo-1.jpg"), to: album.appendingPathComponent("IMG_1.jpg"))
        try #"{"title": "From Takeout", "description": "Takeout words", "access": "protected"}"#.write(
            to: album.appendingPathComponent("metadata.json"), atomically: true, encoding: .utf8)
        try "---\ntitle: Own title\n---\n".write(
            to: album.appendingPathComponent("index.md"), atomically: true, encoding: .utf8)
        try #"{"title": "Takeout title", "description": "JSON", "photoTakenTime": {"timestamp": "1"}}"#.write(
            to: album.appendingPathComponent("IMG_1.jpg.json"), atomically: true, encoding: .utf8)
        try "---\ntitle: Sidecar title\n---\n".write(
            to: album.appendingPathComponent("IMG_1.md"), atomically: true, encoding: .utf8)
        let manifest = try await FolderProvider(folder: folder).fetchManifest()
        #expect(
            manifest.albums["Trip"]?.title == "Own title" && manifest.albums["Trip"]?.description == "Takeout words")
        #expect(manifest.photos.first?.title == "Sidecar title" && manifest.photos.first?.description == "JSON")
        #expect(manifest.issues.isEmpty)
    }
}
