import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel
import Testing

/// The Metadata Working Group's choice between EXIF, IPTC and XMP, checked against ExifTool's own
/// `MWG:` tags on files made by Tests/Fixtures/metadata/mwg/make-mwg-fixtures.sh (JPEG, TIFF with
/// IPTC in tag 33723 and in Photoshop's resources, GIF with XMP).
@Suite("MWG metadata against ExifTool")
struct MWGTests {
    /// Every fixture ExifTool's MWG tags are compared on (the IRB-only TIFF has its own test).
    static let files = [
        "jpeg-all-three.jpg", "jpeg-no-digest.jpg", "jpeg-current-digest.jpg", "jpeg-stale-digest.jpg",
        "jpeg-truncated.jpg", "jpeg-headline.jpg", "tiff-iptc-tag.tif", "tiff-current-digest.tif", "gif-xmp.gif"
    ]

    /// ExifTool's JSON output, by file name.
    static func exiftool(_ json: String = "exiftool.json") throws -> [String: [String: Any]] {
        let list = try #require(
            try JSONSerialization.jsonObject(with: try Fixtures.data("metadata/mwg/\(json)")) as? [[String: Any]])
        return Dictionary(
            uniqueKeysWithValues: list.compactMap { entry in
                (entry["SourceFile"] as? String).map { (URL(fileURLWithPath: $0).lastPathComponent, entry) }
            })
    }

    /// What galleryssg makes of a fixture, through the same header reading a build uses.
    static func ours(_ file: String) throws -> EmbeddedMetadata {
        try ImageProcessor.readHeaders(Fixtures.data("metadata/mwg/\(file)")).facts.embedded
    }

    /// A fixture's raw metadata blocks, as its format's decoder finds them.
    static func blocks(_ file: String) throws -> MetadataBlocks {
        let data = try Fixtures.data("metadata/mwg/\(file)")
        switch URL(fileURLWithPath: file).pathExtension {
        case "tif": return try TIFFCodec.header(data).metadata
        case "gif": return try GIFCodec.header(data).metadata
        default: return MetadataBlocks.fromJPEG(data)
        }
    }

    /// A JSON value ExifTool writes as a string for one item and an array for several.
    static func list(_ value: Any?) -> [String] {
        if let text = value as? String { return [text] }
        return (value as? [Any])?.map { "\($0)" } ?? []
    }

    /// ExifTool's `2019:05:06 07:08:09.25+02:00` as the site writes dates: ISO 8601 to the second
    /// (the site shows no fractions), with the offset when there is one.
    static func isoDate(_ value: Any?) -> String? {
        guard let text = value as? String else { return nil }
        let parts = text.split(separator: " ", maxSplits: 1)
        let day = parts[0].replacingOccurrences(of: ":", with: "-")
        guard parts.count == 2 else { return day }
        var clock = String(parts[1])
        if let dot = clock.firstIndex(of: ".") {
            let offset = clock[dot...].firstIndex { $0 == "+" || $0 == "-" || $0 == "Z" }
            clock = String(clock[..<dot]) + (offset.map { String(clock[$0...]) } ?? "")
        }
        return day + "T" + clock
    }

    @Test(arguments: files)
    func matchesExifToolsMWGTags(_ file: String) throws {
        let expected = try #require(try Self.exiftool()[file], "exiftool.json has no entry for \(file)")
        let found = try Self.ours(file)
        #expect(found.caption == expected["Composite:Description"] as? String)
        let creators = Self.list(expected["Composite:Creator"])
        #expect(found.creator == (creators.isEmpty ? nil : creators.joined(separator: ", ")))
        #expect(found.rights == expected["Composite:Copyright"] as? String)
        #expect(found.keywords == Self.list(expected["Composite:Keywords"]))
        #expect(found.takenAt == Self.isoDate(expected["Composite:DateTimeOriginal"]))
    }

    /// The digest the file stores and the MD5 of its IPTC are ExifTool's `IPTCDigest` and
    /// `CurrentIPTCDigest`, so the check compares what ExifTool compares.
    @Test(arguments: files)
    func digestsMatchExifTools(_ file: String) throws {
        let expected = try #require(try Self.exiftool()[file])
        let blocks = try Self.blocks(file)
        let record = IPTCReader.record(iptc: blocks.iptc, photoshop: blocks.photoshop)
        func hex(_ data: Data?) -> String? { data.map { $0.map { String(format: "%02x", $0) }.joined() } }
        #expect(hex(record?.digest) == expected["File:CurrentIPTCDigest"] as? String)
        #expect(hex(record?.storedDigest) == expected["Photoshop:IPTCDigest"] as? String)
    }

    /// Title is no MWG field: `dc:title` or ObjectName by the same IPTC digest rule, then the
    /// headline (Photo Mechanic's) by that rule.
    @Test func titleAndHeadline() throws {
        let expected = try Self.exiftool()
        func raw(_ file: String, _ key: String) -> String? { expected[file]?[key] as? String }
        #expect(try Self.ours("jpeg-all-three.jpg").title == raw("jpeg-all-three.jpg", "XMP:Title"))  // no digest
        #expect(try Self.ours("jpeg-stale-digest.jpg").title == raw("jpeg-stale-digest.jpg", "IPTC:ObjectName"))
        #expect(try Self.ours("tiff-iptc-tag.tif").title == raw("tiff-iptc-tag.tif", "IPTC:ObjectName"))
        #expect(try Self.ours("tiff-current-digest.tif").title == raw("tiff-current-digest.tif", "XMP:Title"))
        #expect(try Self.ours("gif-xmp.gif").title == raw("gif-xmp.gif", "XMP:Title"))
        let headline = try Self.ours("jpeg-headline.jpg")
        #expect(headline.title == raw("jpeg-headline.jpg", "XMP:Headline"))
        #expect(headline.title == "XMP headline")
        var iptcOnly = MetadataFields()
        iptcOnly.headline = "IPTC headline"
        let record = IPTCRecord(fields: iptcOnly, digest: Data([1]), storedDigest: nil)
        #expect(
            EmbeddedMetadata.choosing(exif: MetadataFields(), iptc: record, xmp: MetadataFields()).title
                == "IPTC headline")
    }

    /// IPTC kept only in Photoshop's resources (tag 34377) is read. ExifTool reads the same IPTC
    /// tags, but its MWG tags leave IPTC outside tag 33723 out; galleryssg uses it, as it is the
    /// only description the file has.
    @Test func readsIPTCFromATIFFsImageResources() throws {
        let iptc = try #require(try Self.exiftool("exiftool-iptc.json")["tiff-irb.tif"])
        let found = try Self.ours("tiff-irb.tif")
        #expect(found.title == iptc["IPTC:ObjectName"] as? String)
        #expect(found.caption == iptc["IPTC:Caption-Abstract"] as? String)
        #expect(found.creator == iptc["IPTC:By-line"] as? String)
        #expect(found.keywords == Self.list(iptc["IPTC:Keywords"]))
        #expect(found.caption != nil)
        #expect(try Self.exiftool()["tiff-irb.tif"]?["Composite:Description"] == nil)
    }

    /// EXIF Artist as the MWG writes a list in one string (ExifTool's `StringToList`).
    @Test func exifArtistList() {
        #expect(EmbeddedMetadata.mwgList("Ana Example") == ["Ana Example"])
        #expect(EmbeddedMetadata.mwgList("Ana; Ben") == ["Ana", "Ben"])
        #expect(EmbeddedMetadata.mwgList(#""Smith; Jones"; Ben"#) == ["Smith; Jones", "Ben"])
        #expect(EmbeddedMetadata.mwgList(#""say ""hi"""; x"#) == [#"say "hi""#, "x"])
    }

    /// A camera's placeholder ImageDescription does not hide the photographer's caption, and an
    /// XMP block with only Lightroom's hierarchical keywords still gives keywords.
    @Test func placeholdersAndFallbacks() {
        var exif = MetadataFields()
        exif.description = nil  // what ExifReader makes of "OLYMPUS DIGITAL CAMERA"
        exif.creators = ["  "]
        var xmp = MetadataFields()
        xmp.description = "The harbour"
        xmp.creators = ["Ana"]
        xmp.otherKeywords = ["Reykjavík"]
        xmp.otherDate = "2017-04-05T06:07:08"
        let chosen = EmbeddedMetadata.choosing(exif: exif, iptc: nil, xmp: xmp)
        #expect(chosen.caption == "The harbour" && chosen.creator == "Ana")
        #expect(chosen.keywords == ["Reykjavík"] && chosen.takenAt == "2017-04-05T06:07:08")
    }

    /// Image resources cut short or garbled are read as far as they go, never past their end.
    @Test func survivesDamagedImageResources() throws {
        var generator = SystemRandomNumberGenerator()
        for file in Self.files + ["tiff-irb.tif"] {
            let blocks = try Self.blocks(file)
            for block in [blocks.iptc, blocks.photoshop].compactMap({ $0 }) {
                for cut in 0..<block.count {
                    _ = IPTCReader.record(iptc: block.prefix(cut), photoshop: block.prefix(cut))
                }
                for _ in 0..<64 {
                    var garbled = [UInt8](block)
                    for _ in 0..<3 {
                        garbled[Int.random(in: 0..<garbled.count, using: &generator)] = .random(
                            in: 0...255, using: &generator)
                    }
                    _ = IPTCReader.record(iptc: Data(garbled), photoshop: Data(garbled))
                }
            }
        }
        let gif = try Fixtures.data("metadata/mwg/gif-xmp.gif")
        for cut in 0..<gif.count { _ = try? GIFCodec.header(gif.prefix(cut)) }
        let resource =
            Data("8BIM".utf8) + Data([0x04, 0x04, 0x03, 0x41, 0x42, 0x43, 0x00, 0x00, 0x00, 0x02, 0x1c, 0x02])
        // A named resource: its name padded to an even length.
        #expect(PhotoshopResources.read(resource)[0x0404] == Data([0x1c, 0x02]))
        #expect(PhotoshopResources.read(resource.prefix(resource.count - 1)).isEmpty)
    }
}
