import Foundation
import GalleryModel

extension ImagingError {
    /// A file that is no image galleryssg reads, named by what it is instead: an empty file, text,
    /// an HTML page, a PDF, an archive… The first bytes, in hex, go only to `--report` (`firstBytes`).
    ///
    /// "file starts with 68 65 6c 6c" told a newcomer nothing; "a text file" or "an HTML page (did a
    /// download return an error page?)" says what happened and what to do.
    /// - Parameter head: The first bytes of the file (64 are enough).
    package static func notAnImage(_ head: [UInt8]) -> ImagingError {
        let hex = head.prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined(separator: " ")
        return ImagingError(.notAnImage, description: Content(head).words, firstBytes: hex)
    }

    /// What a file that is no supported image holds, told from its first bytes.
    enum Content {
        case empty, damagedPNG, html, xml, json, pdf, zip, gzip, bmp, photoshop, video, audio, text, unknown

        init(_ head: [UInt8]) {
            func starts(_ signature: String) -> Bool { head.starts(with: Array(signature.utf8)) }
            // Markup and JSON may follow a byte order mark and white space.
            let text = Array(head.drop { [0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].contains($0) })
            let lower = String(decoding: text.prefix(16), as: UTF8.self).lowercased()
            if head.isEmpty {
                self = .empty
            } else if Swift.zip(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as [UInt8]).filter({ $0 == $1 })
                .count >= 5
            {
                // Most of PNG's signature, which is made to show damage by text-mode copies and 7-bit links.
                self = .damagedPNG
            } else if ["<!doctype html", "<html", "<head", "<body", "<!--"].contains(where: lower.hasPrefix) {
                self = .html
            } else if lower.hasPrefix("<?xml") || lower.hasPrefix("<svg") {
                self = .xml
            } else if starts("%PDF") {
                self = .pdf
            } else if head.starts(with: [0x50, 0x4b, 0x03, 0x04]) {
                self = .zip
            } else if head.starts(with: [0x1f, 0x8b]) {
                self = .gzip
            } else if starts("BM") && head.count >= 14 {
                self = .bmp
            } else if starts("8BPS") {
                self = .photoshop
            } else if MediaSignature.kind(of: Data(head)) == .audio {
                self = .audio
            } else if head.count >= 12, Array(head[4..<8]) == Array("ftyp".utf8) {
                self = .video
            } else if text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "[") {
                self = .json
            } else if Self.isText(head) {
                self = .text
            } else {
                self = .unknown
            }
        }

        /// Printable UTF-8 and white space only (the last character may be cut by the 64-byte head).
        private static func isText(_ head: [UInt8]) -> Bool {
            guard head.allSatisfy({ ($0 >= 0x20 && $0 != 0x7f) || [0x09, 0x0a, 0x0d].contains($0) }) else {
                return false
            }
            var bytes = head
            for _ in 0..<3 where String(validating: bytes, as: UTF8.self) == nil && !bytes.isEmpty {
                bytes.removeLast()
            }
            return String(validating: bytes, as: UTF8.self) != nil
        }

        var words: String {
            let formats = "galleryssg reads JPEG, PNG, WebP, HEIF, AVIF, TIFF and GIF"
            switch self {
            case .empty: return "an empty file (0 bytes), not an image; replace it or remove it"
            case .damagedPNG:
                return
                    "a PNG file whose signature is damaged (was it copied as text, changing its line endings?); copy it again"
            case .html: return "an HTML page, not an image (did a download return an error page?)"
            case .xml: return "an XML or SVG file, not an image \(formats); export it as PNG"
            case .json: return "a JSON document, not an image (did a download return an error message?)"
            case .pdf: return "a PDF document, not an image; export its pages as JPEG or PNG"
            case .zip: return "a ZIP archive, not an image; unpack it"
            case .gzip: return "a gzip archive, not an image; unpack it"
            case .bmp: return "a BMP image, which galleryssg does not read; convert it to PNG or JPEG"
            case .photoshop:
                return "a Photoshop document, which galleryssg does not read; export it as JPEG, PNG or TIFF"
            case .video: return "a video or other MP4/QuickTime file, not a still image \(formats)"
            case .audio: return "an audio file (sound only), not a photo or a video clip; it is not published"
            case .text: return "a text file, not an image"
            case .unknown: return "not an image \(formats) (its first bytes match none of them)"
            }
        }
    }
}
