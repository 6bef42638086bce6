import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel
import GalleryProviders
import Testing

/// The XMP, IPTC and EXIF readers on JPEGs made by Tests/Fixtures/metadata/make-metadata-fixtures.sh.
@Suite("Embedded metadata")
struct EmbeddedMetadataTests {
    static func embedded(_ name: String) throws -> EmbeddedMetadata {
        EmbeddedMetadata.read(.fromJPEG(try Fixtures.data("metadata/\(name)")))
    }

    @Test func findsTheBlocksOfAJPEG() throws {
        let blocks = MetadataBlocks.fromJPEG(try Fixtures.data("metadata/all-three.jpg"))
        #expect(blocks.exif?.starts(with: Array("Exif".utf8) + [0, 0]) == true)
        #expect(blocks.iptc?.starts(with: Array("Photoshop 3.0".utf8) + [0]) == true)
        let xmp = try #require(blocks.xmp)
        #expect(String(decoding: xmp, as: UTF8.self).contains("XMP wins"))
        #expect(!xmp.starts(with: Array("http://ns.adobe.com/xap/1.0/".utf8)))
        #expect(MetadataBlocks.fromJPEG(try Fixtures.data("images/photo-2.jpg")) == MetadataBlocks())
    }

    @Test func readsXMP() throws {
        let found = try Self.embedded("xmp-only.jpg")
        #expect(found.title == "XMP title")
        #expect(found.caption == "Caption with *stars*, <b>tags</b> & [a link](javascript:x)")
        #expect(found.keywords == ["sea", "sky"])
        #expect(found.creator == "Ana Example")
        #expect(found.rights == "© 2024 Ana Example")
        #expect(found.licenseURL?.absoluteString == "https://creativecommons.org/licenses/by/4.0/")
        #expect(found.rating == 4)
        #expect(found.takenAt == "2021-06-01T10:20:00+02:00")
    }

    /// The XMP Toolkit inside exempi is not safe to call from several threads at once (parallel
    /// builds printed "Duplicate property or field node" and lost photos' credits): every call is
    /// serialised, so 400 reads on 8 threads all give the single-threaded answer.
    @Test func xmpReadsFromManyThreadsAgree() async throws {
        let packet = try #require(MetadataBlocks.fromJPEG(try Fixtures.data("metadata/xmp-only.jpg")).xmp)
        let expected = try XMPReader.read(packet)
        let results = await withTaskGroup(of: [EmbeddedMetadata?].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    await withCheckedContinuation { done in
                        Thread { done.resume(returning: (0..<50).map { _ in try? XMPReader.read(packet) }) }.start()
                    }
                }
            }
            var all: [EmbeddedMetadata?] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(results.count == 400)
        #expect(results.allSatisfy { $0 == expected }, "\(results.filter { $0 != expected }.count) of 400 differ")
    }

    @Test func readsUTF8IPTC() throws {
        let found = try Self.embedded("iptc-only.jpg")
        #expect(
            found
                == EmbeddedMetadata(
                    title: "Reykjavík harbour", caption: "Boats — at dawn", keywords: ["Ísland", "boats"],
                    creator: "Jón Jónsson", rights: "© Jón", takenAt: "2020-01-02T03:04:05+01:00"))
    }

    /// No 1:90 and bytes that are not UTF-8: Latin-1, as the software of the time wrote.
    @Test func readsLatin1IPTC() throws {
        let found = try Self.embedded("iptc-latin1.jpg")
        #expect(found.title == "Café Ørsted")
        #expect(found.keywords == ["Fußball"])
        #expect(IPTCReader.decode([0x43, 0x61, 0x66, 0xe9], utf8Declared: false) == "Café")
        #expect(IPTCReader.decode([0x43, 0x61, 0x66, 0xc3, 0xa9], utf8Declared: false) == "Café")
    }

    @Test func readsEXIFText() throws {
        #expect(
            try Self.embedded("exif-only.jpg")
                == EmbeddedMetadata(
                    caption: "EXIF description", creator: "Exif Artist",
                    rights: "Exif Copyright", takenAt: "2019-05-06T07:08:09"))
        let camera = try Self.embedded("exif-camera-caption.jpg")
        #expect(camera.caption == nil)
        #expect(camera.creator == "Olympus Owner")
    }

    /// The MWG's choice (MWGTests holds the cases against ExifTool): EXIF first for caption,
    /// creator, copyright and date; XMP over IPTC (no digest) for the title; IPTC's keywords
    /// where XMP has none.
    @Test func mwgChoiceBetweenTheThree() throws {
        let found = try Self.embedded("all-three.jpg")
        #expect(found.title == "XMP wins")
        #expect(found.caption == "EXIF caption")
        #expect(found.creator == "EXIF Artist")
        #expect(found.keywords == ["iptc-keyword"])
        #expect(found.rights == "EXIF Copyright")
        #expect(found.takenAt == "2018-01-01T12:00:00")
    }

    /// Lightroom's flat keywords win whole; the older IPTC keyword is not mixed in.
    @Test func lightroomKeywords() throws {
        let found = try Self.embedded("lightroom.jpg")
        #expect(found.keywords == ["Reykjavík", "Iceland", "Places"])
        let sidecar = try XMPReader.read(try Fixtures.data("metadata/lightroom-sidecar.xmp")).cleaned()
        #expect(sidecar.keywords == ["Puffin", "Iceland"])
        #expect(sidecar.creator == "First Creator, Second Creator")
        #expect(sidecar.rating == 3)
        #expect(sidecar.takenAt == "2017-04-05T06:07:08")
        #expect(sidecar.licenseURL?.absoluteString == "https://creativecommons.org/licenses/by-nc/4.0/")
    }

    @Test func cleansAndCapsHostileText() {
        let raw = EmbeddedMetadata(
            title: "  Bell\u{7}\u{1b}[31m " + String(repeating: "x", count: 400), caption: "\u{0}",
            keywords: (0..<150).map { "k\($0 % 120)" } + [String(repeating: "y", count: 300)],
            licenseURL: URL(string: "javascript:alert(1)"), rating: 9, takenAt: "soon")
        let clean = raw.cleaned()
        #expect(clean.title?.hasPrefix("Bell[31m xxx") == true)
        #expect(clean.title?.count == EmbeddedMetadata.maxTitle + 1)  // the cap and an ellipsis
        #expect(clean.caption == nil)
        #expect(clean.keywords.count == EmbeddedMetadata.maxKeywords)
        #expect(Set(clean.keywords).count == clean.keywords.count)
        #expect(clean.licenseURL == nil && clean.rating == nil && clean.takenAt == nil)
        #expect(EmbeddedMetadata.isoDate("2022:07:08 09:10:11") == "2022-07-08T09:10:11")
        #expect(EmbeddedMetadata.isoDate("2015") == "2015")
        #expect(EmbeddedMetadata.isoDate("2015-13-45") == nil)
    }

    @Test func refusesOversizedAndMalformedXMP() {
        #expect(throws: XMPReader.Failure.tooLarge(XMPReader.maxPacketBytes + 1)) {
            try XMPReader.read(Data(count: XMPReader.maxPacketBytes + 1))
        }
        #expect(throws: XMPReader.Failure.notXMP) { try XMPReader.read(Data("<x:xmpmeta".utf8)) }
        let laughs =
            #"<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">"#
            + #"<!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]>"#
            + #"<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">"#
            + #"<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" dc:format="&d;&d;&d;"/></rdf:RDF></x:xmpmeta>"#
        #expect(throws: XMPReader.Failure.notXMP) { try XMPReader.read(Data(laughs.utf8)) }  // no DOCTYPE in XMP
    }

    /// An IIM dataset whose extended length says 4 GB would wrap libiptcdata's bounds check.
    @Test func refusesIPTCLengthsPastTheBlock() {
        let huge: [UInt8] = [0x1c, 0x02, 0x05, 0x80, 0x04, 0xff, 0xff, 0xff, 0xff, 0x41]
        #expect(!IPTCReader.isWellFormed(Data(huge)))
        #expect(IPTCReader.read(Data(huge)) == EmbeddedMetadata())
        #expect(IPTCReader.isWellFormed(Data([0x1c, 0x02, 0x05, 0x00, 0x01, 0x41])))
        #expect(IPTCReader.read(Data([0x1c, 0x02, 0x05, 0x00, 0x01, 0x41])).title == "A")
    }

    /// Prefixes of every fixture and of each of its blocks, and blocks with bytes flipped, read
    /// without crashing. (exempi prints a line to stderr for each packet it cannot parse.)
    @Test func survivesTruncatedAndGarbledInput() throws {
        var generator = SystemRandomNumberGenerator()
        for name in ["xmp-only.jpg", "iptc-only.jpg", "exif-only.jpg", "all-three.jpg", "lightroom.jpg"] {
            let data = try Fixtures.data("metadata/\(name)")
            let blocks = MetadataBlocks.fromJPEG(data)
            for cut in stride(from: 0, to: data.count, by: 7) {
                _ = EmbeddedMetadata.read(.fromJPEG(data.prefix(cut)))
            }
            for block in [blocks.exif, blocks.xmp, blocks.iptc].compactMap({ $0 }) {
                for cut in stride(from: 0, to: block.count, by: max(1, block.count / 64)) {
                    let part = Data(block.prefix(cut))
                    _ = EmbeddedMetadata.read(MetadataBlocks(exif: part, xmp: part, iptc: part, photoshop: part))
                }
                for _ in 0..<64 {
                    var garbled = [UInt8](block)
                    for _ in 0..<4 {
                        garbled[Int.random(in: 0..<garbled.count, using: &generator)] = UInt8.random(
                            in: 0...255, using: &generator)
                    }
                    _ = EmbeddedMetadata.read(
                        MetadataBlocks(
                            exif: Data(garbled), xmp: Data(garbled), iptc: Data(garbled),
                            photoshop: Data(garbled)))
                }
            }
        }
        let noise = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(EmbeddedMetadata.read(MetadataBlocks(exif: noise, xmp: noise, iptc: noise)).title == nil)
    }
}
