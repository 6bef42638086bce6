import Foundation
import GalleryMetadata
import GalleryModel

/// An embedded ICC colour profile, as raw bytes.
package struct ICCProfile: Sendable, Equatable {
    package let data: Data

    /// Reassembles the profile from a JPEG's `APP2 ICC_PROFILE` segments (ICC.1:2010 Annex B.4).
    ///
    /// TurboJPEG 2.1 (Debian 12) has no call for this; `tj3GetICCProfile` arrived in 3.0. The
    /// segments are found by `JPEGSegments`, so no parsing beyond lengths and the 14-byte
    /// `ICC_PROFILE\0` chunk header is needed.
    package static func fromJPEG(_ jpeg: Data) -> ICCProfile? {
        let signature = Array("ICC_PROFILE".utf8) + [0]
        var chunks: [Int: Data] = [:]
        var expected = 0
        for segment in JPEGSegments.find(in: jpeg, markers: [0xe2], prefixes: [signature])
        where segment.body.count >= 14 {
            let body = [UInt8](segment.body.prefix(14))
            let sequence = Int(body[12])
            let count = Int(body[13])
            expected = max(expected, count)
            chunks[sequence] = Data(segment.body.dropFirst(14))
        }
        guard expected > 0, (1...expected).allSatisfy({ chunks[$0] != nil }) else { return nil }
        return ICCProfile(data: Data((1...expected).flatMap { chunks[$0]! }))
    }

    /// The largest inflated profile accepted; real profiles are a few kilobytes, ProPhoto's under 1 KiB.
    package static let maxPNGProfileBytes = 4 << 20

    /// Reads the profile from a PNG's `iCCP` chunk (PNG spec §11.3.3.3), inflating it with zlib.
    ///
    /// libpng's simplified API, which Swift can call safely, does not hand out the profile, and its
    /// full API longjmps on errors. Chunks are length-prefixed, so this reads only lengths and types
    /// up to the first `IDAT`. A malformed chunk means no profile, never an error: the pixels decode
    /// as sRGB, which is what every viewer without colour management shows too.
    package static func fromPNG(_ png: Data) -> ICCProfile? {
        let bytes = [UInt8](png.prefix(8 << 20))
        guard bytes.count > 8, bytes[1] == 0x50, bytes[2] == 0x4e, bytes[3] == 0x47 else { return nil }
        var offset = 8
        while offset + 8 <= bytes.count {
            let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            let body = offset + 8
            guard length <= bytes.count - body, type != "IDAT" else { return nil }
            if type == "iCCP" {
                let chunk = bytes[body..<(body + length)]
                // profile name (1–79 bytes), NUL, compression method 0 (deflate), then the zlib stream
                guard let nul = chunk.firstIndex(of: 0), nul - body <= 79, nul + 2 <= chunk.endIndex,
                    chunk[nul + 1] == 0
                else { return nil }
                return inflate(Array(chunk[(nul + 2)...])).map { ICCProfile(data: Data($0)) }
            }
            offset = body + length + 4  // data, then CRC
        }
        return nil
    }

    private static func inflate(_ compressed: [UInt8]) -> [UInt8]? {
        // an ICC header alone is 128 bytes
        Zlib.inflate(compressed, limit: maxPNGProfileBytes).flatMap { $0.count >= 128 ? $0 : nil }
    }
}
