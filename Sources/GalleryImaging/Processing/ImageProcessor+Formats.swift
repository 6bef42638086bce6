import Foundation
import GalleryMetadata
import GalleryModel

/// Reading and decoding each original format, so that `inspect` and `render` treat them alike.
extension ImageProcessor {
    /// What the headers said: the facts that are stored and keyed, and what the decode needs.
    package struct HeaderReading {
        package var facts: OriginalFacts
        var jpegHeader: JPEGCodec.Header?
        package var iccProfile: ICCProfile?
        /// For a JPEG: the gain map after it, if any (`GainMap`).
        package var gainMap = GainMap.Search.none
    }

    /// Reads an original's headers (format, size, EXIF, profile, metadata), decoding no pixels.
    ///
    /// Every format then follows one path: the pixel limit, EXIF orientation, ICC to sRGB and the
    /// derivative cascade. HEIF and AVIF are the exception to orientation: libheif applies the
    /// file's `irot`/`imir`, which the HEIF specification makes authoritative, so their EXIF
    /// orientation is recorded as 1 and never applied on top.
    /// - Throws: `ImagingError` for unknown formats or unreadable headers.
    package static func readHeaders(_ data: Data) throws -> HeaderReading {
        let format = try ImageFormat.sniff(data)
        if format == .raw { return try rawHeaders(data) }
        if format == .jpeg {
            let header = try JPEGCodec.header(data)
            var facts = OriginalFacts(
                format: .jpeg, size: header.size, exif: ExifReader.read(jpeg: data),
                embedded: EmbeddedMetadata.read(.fromJPEG(data)))
            facts.motion(MotionPhoto.search(data, xmp: MetadataBlocks.fromJPEG(data).xmp))
            let gainMap = GainMap.find(in: data, size: header.size)
            if case .found(let source) = gainMap { facts.gainMap = source.header.size }
            return HeaderReading(
                facts: facts, jpegHeader: header, iccProfile: ICCProfile.fromJPEG(data), gainMap: gainMap)
        }
        let header: ImageHeader
        switch format {
        case .png:
            header = ImageHeader(
                size: try PNGCodec.size(data), iccProfile: ICCProfile.fromPNG(data), metadata: .fromPNG(data))
        case .webp: header = try WebPCodec.header(data)
        case .heif, .avif: header = try HEIFCodec.header(data)
        case .tiff: header = try TIFFCodec.header(data)
        case .gif, .jpeg, .raw: header = try GIFCodec.header(data)
        }
        var exif = header.metadata.exif.map(ExifReader.read(exif:)) ?? ExifInfo()
        if format == .heif || format == .avif { exif.orientation = 1 }
        var facts = OriginalFacts(
            format: format, size: header.size, exif: exif, embedded: EmbeddedMetadata.read(header.metadata))
        // An animation's motion is the whole file; a still GIF or WebP says so with 0.
        if format.canAnimate { facts.motionClip = header.animated ? data.count : 0 }
        if format == .heif || format == .avif { facts.motion(MotionPhoto.search(data, xmp: header.metadata.xmp)) }
        var reading = HeaderReading(facts: facts, jpegHeader: nil, iccProfile: header.iccProfile)
        if header.auxiliaryTypes.contains(GainMap.appleHEICType) { reading.gainMap = .problem(.heicAuxiliary) }
        return reading
    }

    /// Decodes the original at `job.decodeSize`, as stored (before orientation), in the profile's
    /// colours, with any transparency composited over `images.background`.
    /// - Returns: The bitmap and the decoder's warnings about damage it decoded past.
    /// - Throws: `ImagingError` for corrupt or truncated data.
    package func decode(_ job: ImageJob) throws -> (bitmap: Bitmap, warnings: [String]) {
        let background = settings.background
        let decoded: (bitmap: Bitmap, warnings: [String])
        switch job.format {
        case .jpeg:
            guard let header = job.jpegHeader else {
                throw ImagingError.format(.jpeg, "the header was not read", kind: .toolFailed)
            }
            let profile = job.iccProfile
            decoded = try JPEGCodec.decodeReportingWarnings(job.data, header: header, size: job.decodeSize) { cmyk in
                profile.flatMap { ColorManagement.cmykToSRGB(cmyk, profile: $0) }
            }
        case .png: decoded = (try PNGCodec.decode(job.data, background: background), [])
        case .webp: decoded = (try WebPCodec.decode(job.data, background: background), [])
        case .heif: decoded = (try HEIFCodec.decode(job.data, background: background), [])
        case .avif: decoded = (try HEIFCodec.decode(job.data, background: background, decoder: "aom"), [])
        case .tiff: decoded = (try TIFFCodec.decode(job.data, background: background), [])
        case .gif: decoded = (try GIFCodec.decode(job.data, background: background), [])
        case .raw: decoded = try decodeRaw(job)
        }
        // The plan, the pixel limit and the cache keys all assumed the header's size.
        guard decoded.bitmap.size == job.decodeSize else {
            throw ImagingError(
                .damaged,
                description:
                    "\(job.format.rawValue): decoded \(decoded.bitmap.size), but the header said \(job.decodeSize)")
        }
        return decoded
    }
}

extension OriginalFacts {
    /// Records what a motion photo search found: the clip's length, or what is wrong with it.
    mutating func motion(_ search: MotionPhoto.Search) {
        switch search {
        case .none: break
        case .clip(let range): motionClip = range.count
        case .broken(let problem): motionProblem = problem
        }
    }
}
