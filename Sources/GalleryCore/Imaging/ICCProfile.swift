import Foundation

/// An embedded ICC colour profile, as raw bytes.
public struct ICCProfile: Sendable, Equatable {
    public let data: Data

    /// Reassembles the profile from a JPEG's `APP2 ICC_PROFILE` segments (ICC.1:2010 Annex B.4).
    ///
    /// TurboJPEG 2.1 (Debian 12) has no call for this; `tj3GetICCProfile` arrived in 3.0. This walks
    /// only the marker segments before the image data: every segment is length-prefixed, so no
    /// parsing beyond lengths and the 14-byte `ICC_PROFILE\0` chunk header is needed.
    static func fromJPEG(_ jpeg: Data) -> ICCProfile? {
        let bytes = [UInt8](jpeg.prefix(1 << 20))   // profiles live in the header; 1 MiB is generous
        guard bytes.count > 4, bytes[0] == 0xff, bytes[1] == 0xd8 else { return nil }
        let signature = Array("ICC_PROFILE".utf8) + [0]
        var chunks: [Int: [UInt8]] = [:]
        var expected = 0
        var offset = 2
        while offset + 4 <= bytes.count, bytes[offset] == 0xff {
            let marker = bytes[offset + 1]
            if marker == 0xda || marker == 0xd9 { break }   // start of scan / end of image
            if marker == 0x01 || (0xd0...0xd7).contains(marker) || marker == 0xff { offset += marker == 0xff ? 1 : 2; continue }
            let length = Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length >= 2, offset + 2 + length <= bytes.count else { break }
            let body = offset + 4
            if marker == 0xe2, length >= 16, Array(bytes[body..<(body + 12)]) == signature {
                let sequence = Int(bytes[body + 12]), count = Int(bytes[body + 13])
                expected = max(expected, count)
                chunks[sequence] = Array(bytes[(body + 14)..<(offset + 2 + length)])
            }
            offset += 2 + length
        }
        guard expected > 0, (1...expected).allSatisfy({ chunks[$0] != nil }) else { return nil }
        return ICCProfile(data: Data((1...expected).flatMap { chunks[$0]! }))
    }
}
