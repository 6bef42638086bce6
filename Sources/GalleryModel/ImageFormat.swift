import Foundation

/// The formats an original can be in, told apart by their signatures, never by file name.
///
/// The raw values are stored in the build state (`original.format`), so existing ones never change.
/// An MPO (multi-picture) file is a JPEG whose first image is the picture, so it is `.jpeg`.
/// `.raw` is a camera's raw file (DNG, CR2, CR3, NEF, ARW, ORF, RAF, RW2, PEF), read by LibRaw.
package enum ImageFormat: String, Sendable, Codable, CaseIterable {
    case jpeg, png, webp, heif, avif, tiff, gif, raw

    /// The format whose signature `data` starts with, or nil.
    package static func recognise(_ data: Data) -> ImageFormat? {
        let head = [UInt8](data.prefix(64))
        func matches(_ signature: String, at offset: Int = 0) -> Bool { Self.head(head, has: signature, at: offset) }
        if head.count >= 3, head[0] == 0xff, head[1] == 0xd8, head[2] == 0xff { return .jpeg }
        if head.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) { return .png }
        if matches("RIFF"), matches("WEBP", at: 8) { return .webp }
        if matches("GIF87a") || matches("GIF89a") { return .gif }
        if isCameraRawSignature(head) { return .raw }
        if isTIFFContainer(data) { return .tiff }
        return isobmff(head)
    }

    /// Whether `data` starts as a classic TIFF ("II*\0", "MM\0*") or a BigTIFF ("II+\0", "MM\0+")
    /// does: a picture, or a camera raw built on TIFF (DNG, CR2, NEF, ARW, PEF), whose whole file is
    /// then an EXIF block too.
    package static func isTIFFContainer(_ data: Data) -> Bool {
        data.starts(with: [0x49, 0x49, 0x2a, 0x00]) || data.starts(with: [0x4d, 0x4d, 0x00, 0x2a])
            || data.starts(with: [0x49, 0x49, 0x2b, 0x00]) || data.starts(with: [0x4d, 0x4d, 0x00, 0x2b])
    }

    /// Whether `head` holds `signature`'s bytes at `offset`.
    private static func head(_ head: [UInt8], has signature: String, at offset: Int = 0) -> Bool {
        let bytes = Array(signature.utf8)
        return head.count >= offset + bytes.count && Array(head[offset..<(offset + bytes.count)]) == bytes
    }

    /// The raw formats whose first bytes say so: Canon CR2 (a TIFF with "CR" at byte 8), Olympus ORF
    /// ("IIRO", "IIRS", "MMOR"), Panasonic RW2 ("IIU\0"), Fujifilm RAF and Canon CR3 (brand `crx `).
    /// DNG, NEF, ARW and PEF begin as any TIFF does; `ImageFormat.sniff` asks LibRaw about those.
    private static func isCameraRawSignature(_ head: [UInt8]) -> Bool {
        func matches(_ signature: String, at offset: Int = 0) -> Bool { Self.head(head, has: signature, at: offset) }
        if head.starts(with: [0x49, 0x49, 0x2a, 0x00]) && matches("CR", at: 8) { return true }
        if matches("IIRO") || matches("IIRS") || matches("MMOR") || head.starts(with: [0x49, 0x49, 0x55, 0x00]) {
            return true
        }
        return matches("FUJIFILMCCD-RAW") || (matches("ftyp", at: 4) && matches("crx ", at: 8))
    }

    /// HEIF and AVIF are ISO base media files whose first box is `ftyp`: the major brand, then
    /// compatible brands, say what the primary image is coded with (ISO/IEC 23008-12 §10, AVIF §9).
    private static func isobmff(_ head: [UInt8]) -> ImageFormat? {
        guard head.count >= 16, Array(head[4..<8]) == Array("ftyp".utf8) else { return nil }
        let boxSize = min(head.count, Int(head[0]) << 24 | Int(head[1]) << 16 | Int(head[2]) << 8 | Int(head[3]))
        guard boxSize >= 16 else { return nil }
        let major = String(decoding: head[8..<12], as: UTF8.self)
        let compatible = stride(from: 16, to: boxSize - 3, by: 4).map {
            String(decoding: head[$0..<($0 + 4)], as: UTF8.self)
        }
        let avif: Set<String> = ["avif", "avis"]
        let heif: Set<String> = ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]
        if avif.contains(major) { return .avif }
        if heif.contains(major) && major != "mif1" && major != "msf1" { return .heif }
        if !avif.isDisjoint(with: compatible) { return .avif }
        if heif.contains(major) || !heif.isDisjoint(with: compatible) { return .heif }
        return nil
    }

    /// The usual file extension, without the dot (an MPO is published as `.jpg`).
    package var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        case .heif: "heic"
        case .avif: "avif"
        case .tiff: "tif"
        case .gif: "gif"
        case .raw: "raw"
        }
    }

    /// The media type to serve the original with (that of its `fileExtension`).
    package var mimeType: String { MediaTypes.byExtension[fileExtension] ?? MediaTypes.unknown }

    /// Whether the format can carry transparency, which is composited over `images.background`,
    /// so the background is part of the derivatives' cache keys.
    package var compositesOverBackground: Bool { self != .jpeg && self != .raw }
}
