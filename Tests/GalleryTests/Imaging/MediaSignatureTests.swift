import Foundation
import GalleryImaging
import GalleryModel
import Testing

/// A file is a clip, audio or neither by its first bytes (`MediaSignature`), and ffmpeg's words for
/// a clip it cannot read become a reason in a person's words (`ClipProblem`). The bytes here are
/// each format's documented signature; the whole files ffmpeg writes are in `ClipContainerTests`.
@Suite struct MediaSignatureTests {
    static func bytes(_ parts: [Any], length: Int = 600) -> Data {
        var data = Data()
        for part in parts {
            if let text = part as? String {
                data += Data(text.utf8)
            } else if let raw = part as? [UInt8] {
                data += raw
            } else if let raw = part as? [Int] {
                data += raw.map { UInt8($0) }
            }
        }
        return data + Data(repeating: 0x11, count: max(0, length - data.count))
    }

    /// An Ogg page header (RFC 3533 §6): "OggS", version, flags (2: first page), granule, serial,
    /// sequence, checksum, one segment of `packet.count` bytes, then the packet.
    static func oggPage(_ packet: [UInt8]) -> [UInt8] {
        Array("OggS".utf8) + [0, 2] + [UInt8](repeating: 0, count: 20) + [1, UInt8(packet.count)] + packet
    }

    static let cases: [(String, Data, MediaKind?)] = [
        ("Ogg Theora", bytes([oggPage([0x80] + Array("theora".utf8) + [3, 2, 1])]), .video),
        ("Ogg Vorbis", bytes([oggPage([0x01] + Array("vorbis".utf8) + [0, 0, 0, 0])]), .audio),
        ("Ogg Opus", bytes([oggPage(Array("OpusHead".utf8) + [1, 2])]), .audio),
        ("FLV with video", bytes(["FLV", [0x01, 0x05, 0, 0, 0, 9]]), .video),
        ("FLV with sound only", bytes(["FLV", [0x01, 0x04, 0, 0, 0, 9]]), .audio),
        ("MPEG program stream (VOB)", bytes([[0x00, 0x00, 0x01, 0xba, 0x44]]), .video),
        ("ASF (WMV)", bytes([[0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11, 0xa6, 0xd9]]), .video),
        ("Matroska", bytes([[0x1a, 0x45, 0xdf, 0xa3]]), .video),
        ("AVI", bytes(["RIFF", [0, 0, 0, 0], "AVI LIST"]), .video),
        ("WAV", bytes(["RIFF", [0, 0, 0, 0], "WAVEfmt "]), .audio),
        ("MP4", bytes([[0, 0, 0, 0x18], "ftypisom", [0, 0, 2, 0], "isomiso2"]), .video),
        ("M4A", bytes([[0, 0, 0, 0x18], "ftypM4A ", [0, 0, 2, 0], "M4A isom"]), .audio),
        ("MP3 with an ID3 tag", bytes(["ID3", [4, 0, 0]]), .audio),
        ("MP3 frame", bytes([[0xff, 0xfb, 0x90, 0x64]]), .audio),
        ("AAC in ADTS", bytes([[0xff, 0xf1, 0x50, 0x80]]), .audio),
        ("FLAC", bytes(["fLaC", [0, 0, 0, 0x22]]), .audio),
        ("JPEG", bytes([[0xff, 0xd8, 0xff, 0xe0]]), nil),
        ("text", bytes(["export const x = 1;\n"], length: 0), nil)
    ]

    @Test(arguments: cases.indices) func aFileIsToldByItsFirstBytes(index: Int) {
        let (name, data, kind) = Self.cases[index]
        #expect(MediaSignature.kind(of: data) == kind, "\(name)")
        #expect(VideoSignature.matches(data) == (kind == .video), "\(name)")
    }

    /// MPEG-TS: a sync byte (0x47) every 188 bytes; one 0x47 alone is not enough.
    @Test func aTransportStreamIsToldBySyncBytesEvery188Bytes() {
        var stream = Data(repeating: 0xff, count: 188 * 4)
        for packet in 0..<4 { stream[packet * 188] = 0x47 }
        #expect(MediaSignature.kind(of: stream) == .video)
        stream[188] = 0x00
        #expect(MediaSignature.kind(of: stream) == nil)
    }

    /// Sound that reaches the image path (a download, a manifest's entry) is called audio, not "not an image".
    @Test func soundIsCalledAudio() {
        let error = ImagingError.notAnImage([UInt8](Self.bytes(["ID3", [4, 0, 0]]).prefix(64)))
        #expect(error.description.hasPrefix("an audio file"), "\(error)")
    }

    @Test func ffmpegsWordsBecomeAReason() {
        let truncated = ClipProblem(
            toolOutput:
                "[mov,mp4,m4a,3gp,3g2,mj2 @ 0x55d] moov atom not found\nfile:x.mp4: Invalid data found when processing input"
        )
        #expect(truncated == .truncated)
        #expect(truncated.words.contains("truncated"))
        #expect(ClipProblem(toolOutput: "file:x.ogv: Invalid data found when processing input") == .unreadable)
        #expect(ClipProblem(toolOutput: "Decoder (codec av1) not found for input stream #0:0") == .unknownCodec("av1"))
        #expect(ClipProblem(toolOutput: "Output file #0 does not contain any stream") == .noVideoStream)
        #expect(ClipProblem(toolOutput: "something new went wrong") == .damaged)
        let huge = "[ffv1 @ 0x55c5] [IMGUTILS @ 0x7ffc] Picture size 65535x65535 is invalid\nInvalid data found"
        #expect(ClipProblem(toolOutput: huge) == .impossibleFrameSize("65535x65535"))
        let error = ImagingError.clip(toolOutput: "moov atom not found")
        #expect(error.kind == .damaged && error.toolOutput == "moov atom not found")
        #expect(!error.description.contains("moov"), "ffmpeg's own words go to --report only: \(error)")
        #expect(ImagingError.clip(.noVideoStream).kind == .unsupported)
    }
}
