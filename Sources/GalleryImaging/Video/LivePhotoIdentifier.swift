import Foundation
import GalleryMetadata
import GalleryModel

/// The content identifier both halves of an Apple Live Photo carry, which pairs them when their
/// names differ: the still's in its Apple maker note (tag `0x0011`, exiftool's ContentIdentifier,
/// formerly MediaGroupUUID), the clip's in its QuickTime key `com.apple.quicktime.content.identifier`.
package enum LivePhotoIdentifier {
    /// The still's identifier (a JPEG's or a HEIC's EXIF), or nil.
    package static func ofStill(_ data: Data) -> String? {
        let exif: Data?
        switch try? ImageFormat.sniff(data) {
        case .jpeg: exif = MetadataBlocks.fromJPEG(data).exif
        case .heif: exif = (try? HEIFCodec.header(data))?.metadata.exif
        default: exif = nil
        }
        return exif.flatMap(ExifReader.makerNote(exif:)).flatMap(appleContentIdentifier)
    }

    /// The clip's identifier, from ffprobe; nil when it has none or cannot be read.
    package static func ofClip(_ file: URL, ffprobe: MediaTool) async -> String? {
        guard
            let output = try? await ffprobe.run(
                [
                    "-v", "error", "-show_entries", "format_tags=com.apple.quicktime.content.identifier",
                    "-of", "default=noprint_wrappers=1:nokey=1", "file:" + file.path
                ], timeout: 30),
            output.status == 0
        else { return nil }
        return clean(String(decoding: output.stdout, as: UTF8.self))
    }

    /// Tag `0x0011` of an Apple maker note: `Apple iOS\0`, a version, the byte order (`MM` or `II`),
    /// an entry count, then 12-byte entries whose values past 4 bytes sit at offsets from the
    /// maker note's start (exiftool's Apple.pm). Every offset is checked against the bytes there are.
    package static func appleContentIdentifier(_ note: Data) -> String? {
        let bytes = [UInt8](note.prefix(1 << 16))
        guard bytes.count >= 16, bytes.starts(with: Array("Apple iOS\0".utf8)) else { return nil }
        let big: Bool
        switch (bytes[12], bytes[13]) {
        case (0x4d, 0x4d): big = true
        case (0x49, 0x49): big = false
        default: return nil
        }
        func u16(_ at: Int) -> Int {
            big ? Int(bytes[at]) << 8 | Int(bytes[at + 1]) : Int(bytes[at + 1]) << 8 | Int(bytes[at])
        }
        func u32(_ at: Int) -> Int { big ? u16(at) << 16 | u16(at + 2) : u16(at + 2) << 16 | u16(at) }
        let count = u16(14)
        for index in 0..<count {
            let entry = 16 + index * 12
            guard entry + 12 <= bytes.count else { return nil }
            guard u16(entry) == 0x0011, u16(entry + 2) == 2 else { continue }  // ASCII
            let length = u32(entry + 4)
            let start = length <= 4 ? entry + 8 : u32(entry + 8)
            guard length > 0, length <= 256, start >= 0, start + length <= bytes.count else { return nil }
            return clean(String(decoding: bytes[start..<(start + length)].prefix { $0 != 0 }, as: UTF8.self))
        }
        return nil
    }

    /// An identifier as text: trimmed, at most 100 printable ASCII characters; nil when empty.
    private static func clean(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 100,
            trimmed.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f })
        else {
            return nil
        }
        return trimmed
    }
}
