import Foundation
import GalleryMetadata
import GalleryModel

/// The gain map stored after a JPEG's primary image (Ultra HDR, ISO 21496-1, Apple's JPEG
/// exports): the second image of its Multi-Picture index, with what it says about itself.
package struct GainMapSource: Sendable {
    /// The gain map image's own JPEG bytes.
    package var jpeg: Data
    package var header: JPEGCodec.Header
    package var metadata: GainMapMetadata
}

/// Why a JPEG's gain map is not carried over (the photo is then published in SDR); the words are
/// made here.
package enum GainMapProblem: Sendable, Equatable, CustomStringConvertible {
    /// Apple's first form: the headroom only in the maker note, which is not read.
    case appleMakerNoteOnly
    /// `hdrgm` fields without a `GainMapMax` or `HDRCapacityMax`, or values that are not numbers.
    case incompleteValues
    /// The gain map image does not read as a JPEG, or is CMYK.
    case unreadableImage
    /// A gain map larger than the photo, or empty.
    case badSize(PixelSize)
    /// The Multi-Picture index lists more images than the file holds: cut short after the photo.
    case missingImage
    /// An HEIC's gain map (Apple's auxiliary image): libheif 1.15 reads it, but its headroom is in
    /// the maker note, and it is not converted.
    case heicAuxiliary

    package var description: String {
        let outcome = "the photo is published in SDR"
        switch self {
        case .appleMakerNoteOnly:
            return "HDR: Apple's older gain map keeps its headroom in the maker note, which is not read; \(outcome)"
        case .incompleteValues:
            return "HDR: the gain map's hdrgm values are incomplete or not numbers; \(outcome)"
        case .unreadableImage: return "HDR: the gain map image is not a readable JPEG; \(outcome)"
        case .badSize(let size): return "HDR: a \(size) gain map does not fit the photo; \(outcome)"
        case .missingImage:
            return
                "the image after the photo that its Multi-Picture index lists (a gain map or a second view) "
                + "is missing or cut short; the photo is published without it"
        case .heicAuxiliary:
            return "HDR: an HEIC's gain map (Apple's auxiliary image) is not converted; \(outcome)"
        }
    }
}

package enum GainMap {
    /// The auxiliary image type Apple's HEIC photos give their HDR gain map.
    static let appleHEICType = "urn:com:apple:photo:2020:aux:hdrgainmap"

    /// What a JPEG's gain map is, if it has one.
    package enum Search: Sendable {
        case none
        case found(GainMapSource)
        case problem(GainMapProblem)
    }

    /// Looks through the images `jpeg`'s Multi-Picture index lists for one that says it is a gain
    /// map. A stereo MPO's second view, or a preview, says nothing of the kind and is passed over.
    /// - Parameter size: The primary image's stored size; a larger gain map is refused.
    package static func find(in jpeg: Data, size: PixelSize) -> Search {
        let images = MultiPicture.followingImages(in: jpeg)
        if images.isEmpty, MultiPicture.imageCount(in: jpeg) > 1 { return .problem(.missingImage) }
        for range in images {
            let image = Data(jpeg[(jpeg.startIndex + range.lowerBound)..<(jpeg.startIndex + range.upperBound)])
            guard image.starts(with: [0xff, 0xd8]) else { continue }
            let fields = MetadataBlocks.fromJPEG(image).xmp.map(XMPReader.gainMapFields) ?? (adobe: [:], apple: [:])
            var metadata = GainMapMetadata()
            metadata.adobe = AdobeGainMap(fields: fields.adobe)
            metadata.apple = AppleGainMap(
                version: fields.apple["HDRGainMapVersion"], headroom: fields.apple["HDRGainMapHeadroom"])
            let signature = [ISOGainMapBlocks.signature]
            if let block = JPEGSegments.find(in: image, markers: [0xe2], prefixes: signature).first {
                let primary = JPEGSegments.find(in: jpeg, markers: [0xe2], prefixes: signature).first?.body
                metadata.iso = ISOGainMapBlocks(primary: primary, gainMap: block.body)
            }
            if metadata.isEmpty {
                if fields.apple["HDRGainMapVersion"] != nil { return .problem(.appleMakerNoteOnly) }
                if !fields.adobe.isEmpty { return .problem(.incompleteValues) }
                continue
            }
            guard let header = try? JPEGCodec.header(image), !header.isCMYK else {
                return .problem(.unreadableImage)
            }
            guard header.size.width <= size.width, header.size.height <= size.height else {
                return .problem(.badSize(header.size))
            }
            return .found(GainMapSource(jpeg: image, header: header, metadata: metadata))
        }
        return .none
    }
}

/// A gain map decoded once and turned upright as its photo is shown, ready to be resized to each
/// derivative's geometry.
struct UprightGainMap: Sendable {
    var source: GainMapSource
    var bitmap: Bitmap
    /// The photo's size after orientation, which the gain map's scale is taken against.
    var display: PixelSize

    /// - Throws: `ImagingError` when the gain map image is damaged.
    init(_ source: GainMapSource, orientation: Int, display: PixelSize) throws {
        self.source = source
        self.display = display
        let decoded = try JPEGCodec.decode(source.jpeg, header: source.header, size: source.header.size)
        bitmap = Orientation.apply(orientation, to: decoded)
    }

    /// The gain map for a derivative of `size`: as much smaller than it as the source's gain map
    /// is than its photo, resampled on its stored (log-encoded) values.
    func resized(to size: PixelSize) -> Bitmap {
        let scaleX = Double(bitmap.width) / Double(display.width)
        let scaleY = Double(bitmap.height) / Double(display.height)
        let target = PixelSize(
            width: min(bitmap.width, max(1, Int((Double(size.width) * scaleX).rounded()))),
            height: min(bitmap.height, max(1, Int((Double(size.height) * scaleY).rounded()))))
        return target == bitmap.size ? bitmap : Resampler.resize(bitmap, to: target)
    }

    /// `primary` (a derivative of `size`, encoded) with the gain map resized to match it, as one
    /// Ultra HDR file.
    /// - Throws: `ImagingError` if the encoder fails.
    func attach(to primary: Data, size: PixelSize, quality: Int) throws -> Data {
        let gainMap = try JPEGCodec.encode(resized(to: size), quality: quality, gray: source.header.isGray)
        return try UltraHDRFile.assemble(primary: primary, gainMap: gainMap, metadata: source.metadata)
    }
}
