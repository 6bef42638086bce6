import Foundation
import GalleryImaging
import GalleryModel
import Testing

/// IPTC in a TIFF, wherever and however writers store it: tag 33723 typed UNDEFINED, BYTE or LONG
/// (Photoshop's and ExifTool's choice), or inside Photoshop's image resources (tag 34377, resource
/// 0x0404), in little- and big-endian files. Each file is made here, byte by byte, and ExifTool reads
/// it first, so the test compares our reading with an independent one.
@Suite("TIFF IPTC of any tag type")
struct TIFFIPTCTests {
    /// Where the IIM goes: tag 33723 with the given TIFF field type (1 BYTE, 4 LONG, 7 UNDEFINED),
    /// or Photoshop's resource 0x0404 in tag 34377.
    enum Place: Sendable, CustomStringConvertible {
        case tag(type: UInt16)
        case resources

        var description: String {
            switch self {
            case .tag(let type): "tag 33723 typed \([1: "BYTE", 4: "LONG", 7: "UNDEFINED"][type] ?? "\(type)")"
            case .resources: "tag 34377 resource 0x0404"
            }
        }
    }

    /// Little- and big-endian files (`II`, `MM`), each with the IIM in every place.
    static let cases: [(Bool, Place)] = [false, true].flatMap { bigEndian in
        [Place.tag(type: 7), .tag(type: 1), .tag(type: 4), .resources].map { place in (bigEndian, place) }
    }

    /// An IIM record: coded character set UTF-8, then title, creator, two keywords and a city.
    static let iim: [UInt8] = {
        func dataset(_ record: UInt8, _ number: UInt8, _ value: [UInt8]) -> [UInt8] {
            [0x1C, record, number, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
        }
        return dataset(1, 90, [0x1B, 0x25, 0x47]) + dataset(2, 5, Array("Tram in Alfama".utf8))
            + dataset(2, 80, Array("Ana Lopes".utf8)) + dataset(2, 25, Array("tram".utf8))
            + dataset(2, 25, Array("Lisboa à noite".utf8)) + dataset(2, 90, Array("Lisboa".utf8))
    }()

    /// A 2x2 uncompressed RGB TIFF whose IFD0 carries `iim` at `place`. A LONG tag's values are the
    /// IIM's bytes taken four at a time as the file's byte order reads them, so the bytes in the
    /// file are the IIM's, in order, as a writer that stores IPTC as LONGs leaves them.
    static func tiff(bigEndian: Bool, place: Place) -> Data {
        var payload: [UInt8]
        let tag: UInt16
        let type: UInt16
        switch place {
        case .tag(let chosen):
            (payload, tag, type) = (iim + [UInt8](repeating: 0, count: (4 - iim.count % 4) % 4), 33723, chosen)
        case .resources:
            let length = UInt32(iim.count)
            payload =
                Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
                + [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
                + iim + (iim.count % 2 == 1 ? [0] : [])
            (tag, type) = (34377, 7)
        }
        let count = UInt32(type == 4 ? payload.count / 4 : payload.count)
        let pixels = [UInt8](repeating: 0, count: 12).enumerated().map { UInt8(($0.offset * 37) & 0xFF) }
        func u16(_ value: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(value >> 8), UInt8(value & 0xFF)] : [UInt8(value & 0xFF), UInt8(value >> 8)]
        }
        func u32(_ value: UInt32) -> [UInt8] {
            let bytes = (0..<4).map { UInt8(value >> (8 * $0) & 0xFF) }
            return bigEndian ? bytes.reversed() : bytes
        }
        // Entries: tag, type, count, value (a SHORT left-justified in its four bytes).
        let entryCount = 10
        let payloadOffset = UInt32(8 + 2 + 12 * entryCount + 4)
        let pixelOffset = payloadOffset + UInt32(payload.count + payload.count % 2)
        func short(_ tag: UInt16, _ value: UInt16) -> [UInt8] { u16(tag) + u16(3) + u32(1) + u16(value) + [0, 0] }
        func long(_ tag: UInt16, _ value: UInt32) -> [UInt8] { u16(tag) + u16(4) + u32(1) + u32(value) }
        var entries: [(UInt16, [UInt8])] = [
            (256, short(256, 2)), (257, short(257, 2)), (258, short(258, 8)), (259, short(259, 1)),
            (262, short(262, 2)), (273, long(273, pixelOffset)), (277, short(277, 3)), (278, short(278, 2)),
            (279, long(279, UInt32(pixels.count))), (tag, u16(tag) + u16(type) + u32(count) + u32(payloadOffset))
        ]
        entries.sort { $0.0 < $1.0 }
        var file = (bigEndian ? Array("MM".utf8) : Array("II".utf8)) + u16(42) + u32(8) + u16(UInt16(entryCount))
        for entry in entries { file += entry.1 }
        file += u32(0) + payload + (payload.count % 2 == 1 ? [0] : []) + pixels
        return Data(file)
    }

    static func exiftool(_ file: URL) throws -> [String: Any] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/exiftool")
        process.arguments = ["-j", "-IPTC:all", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let list = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        return list.first ?? [:]
    }

    @Test(arguments: cases)
    func readsWhatExifToolReads(_ bigEndian: Bool, _ place: Place) throws {
        let data = Self.tiff(bigEndian: bigEndian, place: place)
        let file = try Fixtures.temporaryFolder().appendingPathComponent("iptc.tif")
        try data.write(to: file)
        let expected = try Self.exiftool(file)
        // ExifTool reads the file as made: the values the IIM holds.
        #expect(expected["ObjectName"] as? String == "Tram in Alfama", "\(expected)")
        #expect(expected["By-line"] as? String == "Ana Lopes")
        #expect(expected["Keywords"] as? [String] == ["tram", "Lisboa à noite"])
        #expect(expected["City"] as? String == "Lisboa")
        let header = try TIFFCodec.header(data)
        switch place {
        case .tag:  // the file's bytes, in the file's order, whatever the tag's type
            #expect(header.metadata.iptc.map { [UInt8]($0).starts(with: Self.iim) } == true, "\(place)")
        case .resources: #expect(header.metadata.photoshop != nil && header.metadata.iptc == nil)
        }
        let found = try ImageProcessor.readHeaders(data).facts.embedded
        #expect(found.title == expected["ObjectName"] as? String, "\(bigEndian ? "MM" : "II") \(place)")
        #expect(found.creator == expected["By-line"] as? String)
        #expect(found.keywords == expected["Keywords"] as? [String])
    }
}
