import Foundation
import GalleryConfig
import GalleryModel

/// The parts of an image's render that the build report times (`photoSeconds`).
package enum ImagingPhase: Sendable, Hashable {
    case decode, resize, encode
}

/// The result of processing one original: what it is, what EXIF said, and the encoded derivatives.
package struct ProcessedImage: Sendable {
    package var format: ImageFormat
    /// The size the original is seen at, after EXIF orientation.
    package var displaySize: PixelSize
    package var exif: ExifInfo
    package var plan: DerivativePlan
    /// Encoded derivatives, in the order of `plan.all`.
    package var encoded: [(derivative: Derivative, data: Data)]
    /// The same derivatives as WebP, written to `webpPath`; empty unless `images.webp` is on.
    package var webp: [(derivative: Derivative, data: Data)] = []
    /// The same derivatives as AVIF, written to `avifPath`; empty unless `images.avif` is on.
    package var avif: [(derivative: Derivative, data: Data)] = []
    /// The average colour of the photo as `#rrggbb`, shown while the image loads.
    package var averageColor: String
    /// A blurred preview of at most 24 px as a `data:image/jpeg;base64,…` URI, made from the thumbnail's pixels.
    package var placeholder: String
    /// Seconds spent in each phase, for the build report.
    package var seconds: [ImagingPhase: Double] = [:]
    /// Damage the decoder met and decoded past, as browsers do (such as "JPEG: Corrupt JPEG data:
    /// 5 extraneous bytes before marker 0xdb (decoded as browsers show it)"); empty for a clean file.
    package var warnings: [String] = []
}

/// An original whose headers have been read and whose derivatives are planned, ready to render.
package struct ImageJob: Sendable {
    package let data: Data
    package let format: ImageFormat
    let jpegHeader: JPEGCodec.Header?
    /// The embedded colour profile, converted to sRGB after decoding.
    package let iccProfile: ICCProfile?
    package let exif: ExifInfo
    package let display: PixelSize
    package let plan: DerivativePlan
    /// The size the decode will produce (DCT-scaled for JPEG, full size for the other formats).
    let decodeSize: PixelSize
    /// The part of the decoded bitmap the picture covers, before orientation (see `JPEGCodec.Scaling`).
    package let decodeContent: SourceRegion
    /// For a camera raw: whether its embedded preview is decoded rather than the raw developed.
    var rawPreview = false
    /// For a JPEG with a gain map, when `images.hdr` is on: the gain map every JPEG derivative carries.
    package var gainMap: GainMapSource?
    /// Why a gain map the JPEG has is not carried over, reported with the photo's warnings.
    var gainMapProblem: GainMapProblem?
}

/// Decodes an original once and makes every planned derivative from it.
///
/// For JPEG, the decode uses libjpeg-turbo's DCT scaling down to the smallest scale that still
/// covers the largest derivative; each derivative is then resized from that bitmap with Lanczos3.
package struct ImageProcessor: Sendable {
    package let settings: ImageSettings

    package init(settings: ImageSettings) {
        self.settings = settings
    }

    /// Processes one original: `inspect`, then `render`.
    /// - Throws: `ImagingError` for unknown formats, corrupt data or too many pixels.
    package func process(_ data: Data, folder: String) throws -> ProcessedImage {
        try render(inspect(data, folder: folder))
    }

    /// Reads the headers and EXIF, checks the pixel limit and plans the derivatives, decoding no pixels.
    ///
    /// The plan tells how many pixels the decode will hold, so the pipeline can bound the
    /// megapixels in flight before committing memory to a photo.
    /// - Parameter folder: Output folder for the derivatives, such as `photos/kite`.
    /// - Throws: `ImagingError` for unknown formats, unreadable headers or too many pixels.
    package func inspect(_ data: Data, folder: String) throws -> ImageJob {
        let headers = try Self.readHeaders(data)
        let facts = headers.facts
        let layout = try self.layout(facts, folder: folder)
        var job = ImageJob(
            data: data, format: facts.format, jpegHeader: headers.jpegHeader, iccProfile: headers.iccProfile,
            exif: facts.exif, display: layout.display, plan: layout.plan, decodeSize: layout.decodeSize,
            decodeContent: layout.decodeContent, rawPreview: layout.rawPreview)
        if settings.hdr {
            switch headers.gainMap {
            case .found(let source): job.gainMap = source
            case .problem(let problem): job.gainMapProblem = problem
            case .none: break
            }
        }
        return job
    }

    /// Decodes once, then makes and encodes every planned derivative.
    /// - Parameter wanted: Output paths (JPEG, WebP or AVIF) to encode; nil encodes all. Every derivative
    ///   is still resampled, because smaller ones cascade from larger ones.
    /// - Throws: `ImagingError` for corrupt or truncated data.
    package func render(_ job: ImageJob, encoding wanted: Set<String>? = nil) throws -> ProcessedImage {
        let recipe = DerivativeRecipe(plan: job.plan, display: job.display, settings: settings)
        if let streamed = try streamLargest(job, recipe) {
            var image = try finish(job, recipe, made: streamed.bitmap, seconds: streamed.seconds, wanted: wanted)
            image.warnings = streamed.warnings + image.warnings
            return image
        }
        let clock = ContinuousClock.now
        let decoded = try decodeUpright(job)
        var image = try finish(
            job, recipe, base: (decoded.bitmap, decoded.region), seconds: [.decode: clock.secondsElapsed],
            wanted: wanted)
        image.warnings = decoded.warnings + image.warnings
        return image
    }

    /// The whole original decoded, in sRGB and turned upright, with the region its picture covers
    /// and the decode's warnings: what every derivative is made from when `streamLargest` cannot.
    package func decodeUpright(_ job: ImageJob) throws -> (bitmap: Bitmap, region: SourceRegion, warnings: [String]) {
        let decoded = try decode(job)
        var base = decoded.bitmap
        // CMYK was converted while decoding; an RGB profile other than sRGB is converted here.
        if job.jpegHeader?.isCMYK != true, let profile = job.iccProfile,
            let converted = ColorManagement.toSRGB(base, profile: profile)
        {
            base = converted
        }
        let region = Orientation.apply(job.exif.orientation, to: job.decodeContent, in: job.decodeSize)
        return (Orientation.apply(job.exif.orientation, to: base), region, decoded.warnings)
    }

    /// Makes and encodes every derivative (or those in `wanted`) from the decoded `base`, whose
    /// picture covers its region, or after the first derivative, already `made` as the original decoded.
    private func finish(
        _ job: ImageJob, _ recipe: DerivativeRecipe, base: (bitmap: Bitmap, region: SourceRegion)? = nil,
        made first: Bitmap? = nil, seconds: [ImagingPhase: Double], wanted: Set<String>?
    ) throws -> ProcessedImage {
        var seconds = seconds
        let plan = job.plan
        var encoded: [(derivative: Derivative, data: Data)] = []
        var webp: [(derivative: Derivative, data: Data)] = []
        var avif: [(derivative: Derivative, data: Data)] = []
        var made: [Bitmap] = first.map { [$0] } ?? []
        var thumbnailBitmap: Bitmap?
        var warnings = job.gainMapProblem.map { [$0.description] } ?? []
        let gainMap = upright(job.gainMap, job, wanted: wanted, warnings: &warnings)
        for (index, step) in recipe.steps.enumerated() {
            let derivative = step.derivative
            var clock = ContinuousClock.now
            if index == made.count {
                // Only the first step reads the decoded original (`streamLargest` made it already, if it could).
                let (source, region) = step.source.map { (made[$0], nil) } ?? (base!.bitmap, base!.region)
                made.append(
                    Resampler.resize(source, to: derivative.size, region: region, linearLight: recipe.linearLight))
            }
            var bitmap = made[index]  // later sizes cascade from the unsharpened pixels
            if derivative == plan.thumbnail { thumbnailBitmap = bitmap }
            if let amount = step.sharpen { bitmap = Sharpener.sharpen(bitmap, amount: amount) }
            seconds[.resize, default: 0] += clock.secondsElapsed
            clock = ContinuousClock.now
            if wanted?.contains(derivative.path) ?? true {
                var jpeg = try JPEGCodec.encode(bitmap, quality: settings.quality)
                if let gainMap { jpeg = try gainMap.attach(to: jpeg, size: derivative.size, quality: settings.quality) }
                encoded.append((derivative, jpeg))
            }
            if plan.webp, wanted?.contains(derivative.webpPath) ?? true {
                webp.append((derivative, try WebPCodec.encode(bitmap, quality: settings.quality)))
            }
            if plan.avif, wanted?.contains(derivative.avifPath) ?? true {
                avif.append(
                    (
                        derivative,
                        try HEIFCodec.encodeAVIF(bitmap, quality: HEIFCodec.avifQuality(forJPEG: settings.quality))
                    ))
            }
            seconds[.encode, default: 0] += clock.secondsElapsed
        }
        let small = thumbnailBitmap ?? base?.bitmap ?? made[0]
        return ProcessedImage(
            format: job.format, displaySize: job.display, exif: job.exif, plan: plan, encoded: encoded,
            webp: webp, avif: avif, averageColor: Self.averageColor(small), placeholder: try Self.placeholder(small),
            seconds: seconds, warnings: warnings)
    }

    /// The job's gain map decoded and upright, when a JPEG derivative is wanted; a damaged one is
    /// reported and the photo is published in SDR.
    private func upright(
        _ source: GainMapSource?, _ job: ImageJob, wanted: Set<String>?, warnings: inout [String]
    ) -> UprightGainMap? {
        guard let source, wanted.map({ paths in job.plan.all.contains { paths.contains($0.path) } }) ?? true else {
            return nil
        }
        do {
            return try UprightGainMap(source, orientation: job.exif.orientation, display: job.display)
        } catch {
            warnings.append(GainMapProblem.unreadableImage.description)
            return nil
        }
    }

    func checkPixels(_ size: PixelSize) throws {
        guard size.pixelCount <= settings.maxPixels else {
            throw ImagingError.tooManyPixels(size, limit: settings.maxPixels)
        }
    }

    /// The longest edge of the inline placeholder image.
    static let placeholderEdge = 24

    /// A tiny, low-quality JPEG of the photo as a data URI; the browser's upscaling blurs it.
    /// Made from pixels already in memory, so it costs no extra decode.
    package static func placeholder(_ bitmap: Bitmap) throws -> String {
        let size = PixelSize(width: bitmap.width, height: bitmap.height).fitting(longEdge: placeholderEdge)
        let tiny = Resampler.resize(bitmap, to: size)
        return "data:image/jpeg;base64," + (try JPEGCodec.encode(tiny, quality: 40)).base64EncodedString()
    }

    package static func averageColor(_ bitmap: Bitmap) -> String {
        var sums = [Int](repeating: 0, count: 3)
        let count = bitmap.width * bitmap.height
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for index in 0..<count {
                sums[0] += Int(pixels[index * 3])
                sums[1] += Int(pixels[index * 3 + 1])
                sums[2] += Int(pixels[index * 3 + 2])
            }
        }
        return "#" + sums.map { String(format: "%02x", $0 / max(count, 1)) }.joined()
    }
}
