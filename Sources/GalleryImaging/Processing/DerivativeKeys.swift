import Foundation
import GalleryKeys
import GalleryModel

/// Where an original's derivatives go and how they are made, known before any pixel is decoded.
package struct ImageLayout: Sendable {
    /// The size the original is seen at, after EXIF orientation.
    package var display: PixelSize
    package var plan: DerivativePlan
    /// The size the decode produces (DCT-scaled for JPEG, full size for the other formats).
    var decodeSize: PixelSize
    /// The part of that bitmap the picture covers, before orientation (see `JPEGCodec.Scaling`).
    /// It follows from the stored size and `decodeSize`, so the cache key needs nothing more.
    package var decodeContent: SourceRegion
    /// For a camera raw: whether its embedded preview is decoded rather than the raw developed
    /// (`ImageProcessor.usesPreview`); part of the cache key.
    var rawPreview = false
}

/// The cache keys of one original's output files.
package struct DerivativeKeys: Sendable, Equatable {
    /// Every output file in plan order (each JPEG, then its WebP and AVIF twins when enabled): site path and key.
    package var files: [(path: String, key: Digest)]
    /// The key of the thumbnail's pixels before sharpening; the placeholder and the average colour
    /// are computed from those pixels, so they are cached under this key.
    package var thumbnail: Digest

    package static func == (lhs: DerivativeKeys, rhs: DerivativeKeys) -> Bool {
        lhs.thumbnail == rhs.thumbnail && lhs.files.map(\.path) == rhs.files.map(\.path)
            && lhs.files.map(\.key) == rhs.files.map(\.key)
    }
}

extension ImageProcessor {
    /// The version of the code that turns an original into derivative bytes (decoding, colour
    /// conversion, orientation, resampling, sharpening, encoding, placeholders).
    ///
    /// It is part of every derivative's cache key: bump it whenever that code changes its output,
    /// and every derivative cached by older code becomes a miss.
    ///
    /// 2: a PNG's `eXIf` orientation is applied.
    /// 3: fixed-point resampling, and a JPEG's largest size resampled as it decodes, before it is
    ///    turned upright (2026-11-26).
    /// (AVIF files also key their encoder's speed and quality mapping, so they need no bump here.)
    static let encoderVersion = 3

    /// Reads an original's header facts: format, stored size and EXIF, decoding no pixels.
    /// - Throws: `ImagingError` for unknown formats or unreadable headers.
    package static func facts(of data: Data) throws -> OriginalFacts {
        try readHeaders(data).facts
    }

    /// Plans an original's derivatives from its header facts, without its bytes.
    /// - Throws: `ImagingError.tooManyPixels` when the original is over `images.maxPixels`.
    package func layout(_ facts: OriginalFacts, folder: String) throws -> ImageLayout {
        try checkPixels(facts.size)
        let display = Orientation.displaySize(of: facts.size, orientation: facts.exif.orientation)
        let plan = DerivativePlan(display: display, settings: settings, folder: folder)
        switch facts.format {
        case .jpeg:
            let needed = Orientation.displaySize(of: plan.largest, orientation: facts.exif.orientation)
            let scaling = JPEGCodec.scaling(of: facts.size, atLeast: needed)
            return ImageLayout(display: display, plan: plan, decodeSize: scaling.size, decodeContent: scaling.content)
        case .raw:
            guard settings.raw != .skip else {
                throw ImagingError.format(
                    .raw, "camera raw files are not published (images.raw is \"skip\")", kind: .rawSkipped)
            }
            let preview = Self.usesPreview(facts, largest: plan.largest, policy: settings.raw)
            let size = preview ? facts.preview ?? facts.size : facts.size
            let whole = SourceRegion(x: 0, y: 0, width: Double(size.width), height: Double(size.height))
            return ImageLayout(
                display: display, plan: plan, decodeSize: size, decodeContent: whole, rawPreview: preview)
        case .png, .webp, .heif, .avif, .tiff, .gif:
            let whole = SourceRegion(x: 0, y: 0, width: Double(facts.size.width), height: Double(facts.size.height))
            return ImageLayout(display: display, plan: plan, decodeSize: facts.size, decodeContent: whole)
        }
    }

    /// The cache key of every file `render` would make for this original.
    ///
    /// A key covers exactly what changes that file's bytes: the original's content hash, the decode
    /// size, the background (formats with transparency), the chain of sizes it was resampled through (the same
    /// cascade `render` follows), linear-light resampling, the sharpening applied to it, the format,
    /// the quality and `encoderVersion`. So a new `images.quality` remakes every file, turning on
    /// `images.webp` or `images.avif` only adds the WebP or AVIF files, and a new `images.preview` remakes the preview and
    /// whatever is resampled from it (or decoded at a new DCT scale because of it).
    /// - Parameter contentHash: The SHA-256 of the original's bytes.
    package func keys(contentHash: Digest, facts: OriginalFacts, layout: ImageLayout) -> DerivativeKeys {
        var base = CacheKey("decoded")
        base.add(Self.encoderVersion)
        base.add(contentHash)
        base.add(layout.decodeSize.width)
        base.add(layout.decodeSize.height)
        if facts.format == .raw {
            // A preview is the camera's rendering; a development is LibRaw's, which may change with its version.
            base.add(layout.rawPreview ? "raw preview" : "raw developed by LibRaw \(RAWCodec.version)")
        }
        if facts.format.compositesOverBackground {
            base.add("\(settings.background.red),\(settings.background.green),\(settings.background.blue)")
        }
        let baseKey = base.finish()
        var pixelKeys: [Digest] = []
        var files: [(path: String, key: Digest)] = []
        var thumbnail = baseKey
        let recipe = DerivativeRecipe(plan: layout.plan, display: layout.display, settings: settings)
        let gainMap = settings.hdr ? facts.gainMap : nil
        for step in recipe.steps {
            let derivative = step.derivative
            var pixels = CacheKey("resampled")
            pixels.add(step.source.map { pixelKeys[$0] } ?? baseKey)
            pixels.add(derivative.size.width)
            pixels.add(derivative.size.height)
            pixels.add(recipe.linearLight ? 1 : 0)
            let pixelKey = pixels.finish()
            pixelKeys.append(pixelKey)
            if derivative == layout.plan.thumbnail { thumbnail = pixelKey }
            // A JPEG that carries its gain map (`images.hdr`) is other bytes; the gain map's size is enough
            // to key, since it is made from the same original.
            var formats = [(gainMap.map { "jpeg with a \($0) gain map v1" } ?? "jpeg", derivative.path)]
            if layout.plan.webp { formats.append(("webp", derivative.webpPath)) }
            // The AV1 quality and speed the JPEG quality maps to: a new mapping remakes the AVIF files alone.
            let avif = "avif q\(HEIFCodec.avifQuality(forJPEG: settings.quality)) speed \(HEIFCodec.avifSpeed)"
            if layout.plan.avif { formats.append((avif, derivative.avifPath)) }
            for (format, path) in formats {
                var file = CacheKey("derivative")
                file.add(pixelKey)
                file.add(step.sharpen ?? 0)
                file.add(format)
                file.add(settings.quality)
                files.append((path, file.finish()))
            }
        }
        return DerivativeKeys(files: files, thumbnail: thumbnail)
    }
}
