import Foundation
import GalleryMetadata
import GalleryModel

/// The clip inside a Google or Samsung motion photo: a JPEG, HEIC or AVIF with an MP4 appended
/// after its image, which its XMP announces.
///
/// Google's Motion Photo format 1.0 (https://developer.android.com/media/platform/motion-photo-format)
/// says `GCamera:MotionPhoto="1"` and gives the clip's length as the `Item:Length` of the
/// `Container:Directory` item whose semantic is `MotionPhoto`; the older form says
/// `GCamera:MicroVideo="1"` with `GCamera:MicroVideoOffset`, the clip's length from the end of the
/// file (Samsung writes that form too). Either way the clip is the file's last bytes, and must
/// begin as an MP4 does (an `ftyp` box); a number that points anywhere else is not trusted. In a
/// HEIC or AVIF the MP4 follows the HEIF boxes inside a top-level box of its own, `mpvd` (as
/// Android's camera writes it, and ExifTool reads it as `MotionPhotoVideo`): its payload is the
/// clip, found by walking the top-level boxes when the XMP's length is missing or off by the
/// box's header.
package enum MotionPhoto {
    /// What a photo says of a motion photo's clip, and where it is.
    package enum Search: Sendable, Equatable {
        /// No XMP announces one (and no `mpvd` box holds one).
        case none
        /// The MP4's byte range: the file's last bytes.
        case clip(Range<Int>)
        /// Announced, but not there.
        case broken(MotionPhotoProblem)

        /// The clip's range, when there is one.
        package var range: Range<Int>? {
            if case .clip(let range) = self { return range }
            return nil
        }
    }

    /// The byte range of the MP4 at the end of the JPEG `jpeg`, or nil when its XMP announces none or
    /// the bytes there are not an MP4.
    package static func clip(in jpeg: Data) -> Range<Int>? {
        search(jpeg, xmp: MetadataBlocks.fromJPEG(jpeg).xmp).range
    }

    /// The clip of a motion photo whose last `length` bytes are it (`OriginalFacts.motionClip`), or
    /// nil when they do not begin as an MP4.
    package static func clip(in data: Data, length: Int) -> Range<Int>? {
        guard length >= 16, length <= data.count, isMP4(data, at: data.count - length) else { return nil }
        return (data.count - length)..<data.count
    }

    /// Looks for the clip of `data` (a JPEG, HEIC or AVIF) that its XMP packet `xmp` announces.
    package static func search(_ data: Data, xmp: Data?) -> Search {
        let box = ImageFormat.recognise(data).flatMap { $0 == .heif || $0 == .avif ? mpvd(in: data) : nil }
        let text = xmp.map { String(decoding: $0, as: UTF8.self) } ?? ""
        let announced =
            text.contains(#"MotionPhoto="1""#) || text.contains(#"MicroVideo="1""#)
            || text.contains("<GCamera:MotionPhoto>1<") || text.contains("<GCamera:MicroVideo>1<")
            || text.contains(#"Camera:MotionPhoto="1""#) || text.contains("<Camera:MotionPhoto>1<")
        guard announced || box != nil else { return .none }
        var lengths: [Int] = []
        if let offset = number(after: "MicroVideoOffset", in: text) { lengths.append(offset) }
        // The Container item whose semantic is MotionPhoto: its attributes, in any order, in one element.
        for item in text.matches(of: /<Container:Item\b[^>]*>|<rdf:li\b[^>]*Item:Semantic="MotionPhoto"[^>]*>/)
        where item.output.contains(#"Item:Semantic="MotionPhoto""#) {
            if let length = number(after: "Item:Length", in: String(item.output)) { lengths.append(length) }
        }
        for length in lengths {
            if let range = clip(in: data, length: length) { return .clip(range) }
        }
        if let box { return .clip(box) }
        if lengths.isEmpty { return .broken(.noLength) }
        return lengths.allSatisfy { $0 >= data.count } ? .broken(.lengthPastFile) : .broken(.notAnMP4)
    }

    /// The payload of a HEIF file's top-level `mpvd` box when it is the file's last box and begins
    /// as an MP4 does.
    private static func mpvd(in data: Data) -> Range<Int>? {
        var offset = 0
        while offset + 8 <= data.count {
            let base = data.startIndex + offset
            var size = data[base..<(base + 4)].reduce(0) { $0 << 8 | Int($1) }
            var header = 8
            if size == 1, offset + 16 <= data.count {
                size = data[(base + 8)..<(base + 16)].reduce(0) { $0 << 8 | Int($1) }
                header = 16
            } else if size == 0 {
                size = data.count - offset
            }
            guard size >= header, offset + size <= data.count else { return nil }
            if data[(base + 4)..<(base + 8)].elementsEqual("mpvd".utf8) {
                let start = offset + header
                return offset + size == data.count && isMP4(data, at: start) ? start..<(offset + size) : nil
            }
            offset += size
        }
        return nil
    }

    /// Whether an ISO base media file starts at `offset`: a box size, then `ftyp`.
    private static func isMP4(_ data: Data, at offset: Int) -> Bool {
        guard offset >= 0, offset + 8 <= data.count else { return false }
        let base = data.startIndex + offset
        return data[(base + 4)..<(base + 8)].elementsEqual("ftyp".utf8)
    }

    /// The whole number in `name="123"` (or `<name>123<`), first occurrence.
    private static func number(after name: String, in text: String) -> Int? {
        for pattern in ["\(name)=\"", "\(name)>"] {
            guard let range = text.range(of: pattern) else { continue }
            let digits = text[range.upperBound...].prefix { $0.isNumber }
            if let value = Int(digits) { return value }
        }
        return nil
    }
}
