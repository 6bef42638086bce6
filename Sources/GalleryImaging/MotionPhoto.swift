import Foundation
import GalleryMetadata
import GalleryModel

/// The clip inside a Google or Samsung motion photo: a JPEG with an MP4 appended after its image,
/// which its XMP announces.
///
/// Google's Camera XMP (https://developer.android.com/media/platform/motion-photo-format) says
/// `GCamera:MotionPhoto="1"` and gives the clip's length as the `Item:Length` of the
/// `Container:Directory` item whose semantic is `MotionPhoto`; the older form says
/// `GCamera:MicroVideo="1"` with `GCamera:MicroVideoOffset`, the clip's length from the end of the
/// file (Samsung writes that form too). Either way the clip is the file's last bytes, and must
/// begin as an MP4 does (an `ftyp` box); a number that points anywhere else is not trusted.
package enum MotionPhoto {
    /// The byte range of the MP4 at the end of `jpeg`, or nil when its XMP announces none or the
    /// bytes there are not an MP4.
    package static func clip(in jpeg: Data) -> Range<Int>? {
        guard let xmp = MetadataBlocks.fromJPEG(jpeg).xmp else { return nil }
        let text = String(decoding: xmp, as: UTF8.self)
        guard
            text.contains(#"MotionPhoto="1""#) || text.contains(#"MicroVideo="1""#)
                || text.contains("<GCamera:MotionPhoto>1<") || text.contains("<GCamera:MicroVideo>1<")
        else { return nil }
        var lengths: [Int] = []
        if let offset = number(after: "MicroVideoOffset", in: text) { lengths.append(offset) }
        // The Container item whose semantic is MotionPhoto: its attributes, in any order, in one element.
        for item in text.matches(of: /<Container:Item\b[^>]*>|<rdf:li\b[^>]*Item:Semantic="MotionPhoto"[^>]*>/)
        where item.output.contains(#"Item:Semantic="MotionPhoto""#) {
            if let length = number(after: "Item:Length", in: String(item.output)) { lengths.append(length) }
        }
        for length in lengths where length >= 16 && length < jpeg.count {
            let start = jpeg.count - length
            if isMP4(jpeg, at: start) { return start..<jpeg.count }
        }
        return nil
    }

    /// Whether an ISO base media file starts at `offset`: a box size, then `ftyp`.
    private static func isMP4(_ data: Data, at offset: Int) -> Bool {
        guard offset + 8 <= data.count else { return false }
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
