import Foundation
import GalleryConfig
import GalleryImaging
import GalleryMetadata
import GalleryModel
import Testing

/// The Multi-Picture index and the gain-map values are hostile input like any other: offsets past
/// the file, counts out of range, values that are not numbers are refused, and what is written
/// reads back.
@Suite struct GainMapParsingTests {
    /// A JPEG-shaped file: SOI, one APP2 MPF segment with `body`, then `tail`.
    static func file(mpf body: [UInt8], tail: [UInt8] = Array(repeating: 0, count: 64)) -> Data {
        Data([0xff, 0xd8, 0xff, 0xe2, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xff)] + body + tail)
    }

    @Test func theIndexWrittenReadsBack() {
        let body = MultiPicture.segmentBody(primarySize: 100, secondarySize: 30, secondaryOffset: 40)
        #expect(body.count == MultiPicture.segmentBodyCount)
        // The TIFF header starts 4 (marker, length) + 2 (SOI) + 4 (signature) bytes in: 10 + 40 = 50.
        let data = Self.file(mpf: body, tail: Array(repeating: 0, count: 200))
        #expect(MultiPicture.followingImages(in: data) == [50..<80])
    }

    @Test func offsetsAndCountsOutsideTheFileAreRefused() {
        for (size, offset) in [(30, 4000), (5000, 40), (0, 40), (30, 0), (Int(UInt32.max), 40)] {
            let body = MultiPicture.segmentBody(primarySize: 100, secondarySize: size, secondaryOffset: offset)
            #expect(MultiPicture.followingImages(in: Self.file(mpf: body)).isEmpty, "\(size) at \(offset)")
        }
        var body = MultiPicture.segmentBody(primarySize: 100, secondarySize: 30, secondaryOffset: 40)
        body[4 + 8 + 2 + 24 + 4 + 3] = 0xff  // an MPEntry count of 0x...ff bytes
        #expect(MultiPicture.followingImages(in: Self.file(mpf: body)).isEmpty)
        body = MultiPicture.segmentBody(primarySize: 100, secondarySize: 30, secondaryOffset: 40)
        body[4] = 0x58  // not a TIFF header
        #expect(MultiPicture.followingImages(in: Self.file(mpf: body)).isEmpty)
        #expect(MultiPicture.followingImages(in: Self.file(mpf: Array("MPF\0".utf8))).isEmpty)
    }

    @Test func gainMapValuesMustBeFiniteNumbers() {
        let good: [String: [String]] = ["GainMapMax": ["2.5"], "HDRCapacityMax": ["2.5"]]
        let values = AdobeGainMap(fields: good)
        #expect(values?.gainMapMin == [0])
        #expect(values?.gamma == [1])
        #expect(values?.offsetSDR == [1.0 / 64])
        #expect(
            AdobeGainMap(fields: ["GainMapMax": ["2.5", "2", "1"], "HDRCapacityMax": ["2.5"]])?.gainMapMax.count == 3)
        for bad in [
            ["GainMapMax": ["nan"], "HDRCapacityMax": ["2.5"]], ["GainMapMax": ["inf"], "HDRCapacityMax": ["2.5"]],
            ["GainMapMax": ["2.5"]], ["GainMapMax": ["2", "3"], "HDRCapacityMax": ["2.5"]],
            ["GainMapMax": ["2.5"], "HDRCapacityMax": ["2.5"], "Gamma": ["0"]],
            ["GainMapMax": ["1e300"], "HDRCapacityMax": ["2.5"]], ["GainMapMax": ["<script>"], "HDRCapacityMax": ["1"]]
        ] {
            #expect(AdobeGainMap(fields: bad) == nil, "\(bad)")
        }
        #expect(AppleGainMap(version: "131072", headroom: "4.5") != nil)
        #expect(AppleGainMap(version: "131072", headroom: "nan") == nil)
        #expect(AppleGainMap(version: "65536", headroom: nil) == nil)
    }

    @Test func theWrittenXMPReadsBackThroughExempi() throws {
        let fields = ["GainMapMin": ["-0.5", "0", "0.25"], "GainMapMax": ["3.25"], "HDRCapacityMax": ["3.25"]]
        let values = try #require(AdobeGainMap(fields: fields))
        let packet = try #require(GainMapXMP.gainMap(GainMapMetadata(adobe: values)))
        let read = XMPReader.gainMapFields(packet)
        #expect(AdobeGainMap(fields: read.adobe) == values)
        let apple = try #require(AppleGainMap(version: "131072", headroom: "4.532783"))
        let applePacket = try #require(GainMapXMP.gainMap(GainMapMetadata(apple: apple)))
        let appleRead = XMPReader.gainMapFields(applePacket).apple
        #expect(
            AppleGainMap(version: appleRead["HDRGainMapVersion"], headroom: appleRead["HDRGainMapHeadroom"]) == apple)
        #expect(GainMapXMP.gainMap(GainMapMetadata()) == nil)
    }

    /// A gain map is found only where the second image says it is one: a stereo MPO's second view
    /// (no gain-map XMP, no ISO block) leaves the JPEG as it was.
    @Test func anMPOsSecondViewIsNoGainMap() throws {
        let view = try JPEGCodec.encode(
            Bitmap(width: 8, height: 8, pixels: [UInt8](repeating: 90, count: 192)), quality: 80)
        let primary = try JPEGCodec.encode(
            Bitmap(width: 16, height: 16, pixels: [UInt8](repeating: 40, count: 768)), quality: 80)
        let mpo = try UltraHDRFile.assemble(primary: primary, gainMap: view, metadata: GainMapMetadata())
        #expect(MultiPicture.followingImages(in: mpo).count == 1)
        guard case .none = GainMap.find(in: mpo, size: PixelSize(width: 16, height: 16)) else {
            Issue.record("an MPO's second view was taken for a gain map")
            return
        }
    }

    /// A gain map cut short or garbled never stops its photo: the photo is published, with the
    /// gain map when it still decodes, in SDR with the reason when it does not.
    @Test func aDamagedGainMapNeverStopsThePhoto() throws {
        let apple = try Fixtures.data("hdr/apple_gainmap_new.jpg")
        let processor = ImageProcessor(settings: try ImageSettings.defaults())
        let gainMap = try #require(MultiPicture.followingImages(in: apple).first)
        for cut in [gainMap.lowerBound + 2, gainMap.lowerBound + 700, apple.count - 10] {
            let image = try processor.process(Data(apple.prefix(cut)), folder: "photos/cut")
            #expect(!image.encoded.isEmpty)
            #expect(image.encoded.allSatisfy { MultiPicture.followingImages(in: $0.data).isEmpty }, "cut at \(cut)")
            #expect(image.warnings == [GainMapProblem.missingImage.description], "cut at \(cut)")
        }
        var garbled = [UInt8](apple)
        // Its entropy-coded data, after the start of scan (its XMP garbled is no gain map at all).
        let scan = try #require(
            (gainMap.lowerBound..<(gainMap.upperBound - 1)).first { garbled[$0] == 0xff && garbled[$0 + 1] == 0xda })
        for offset in stride(from: scan + 40, to: gainMap.upperBound - 2, by: 37) { garbled[offset] = 0xff }
        let image = try processor.process(Data(garbled), folder: "photos/garbled")
        #expect(!image.encoded.isEmpty)
        let carried = image.encoded.filter { !MultiPicture.followingImages(in: $0.data).isEmpty }.count
        #expect(carried == image.encoded.count || image.warnings == [GainMapProblem.unreadableImage.description])
    }
}
