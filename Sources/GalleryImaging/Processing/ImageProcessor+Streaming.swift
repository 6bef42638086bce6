import Foundation
import GalleryModel

extension ImageProcessor {
    /// The first (largest) derivative of a JPEG, resampled as the original decodes a band of rows at
    /// a time (`JPEGRows`), so the decoded original is never held whole; nil where the photo needs
    /// its whole decode (`render` then decodes it as before).
    ///
    /// A 24 MP photo DCT-scaled for a 1600 px preview decodes to 3750 × 2500, 28 MB; its preview is
    /// 5 MB and the bands 0.3 MB. The preview is made in the stored orientation and turned upright
    /// after, where the whole decode was turned first: the same filter on each axis, so the same
    /// picture (the passes' order differs, so a level here and there).
    ///
    /// Needs: a JPEG that is not CMYK (CMYK is converted whole), a plan where only the first step
    /// reads the original (every plan `DerivativePlan` makes today), and a reduction the fixed-point
    /// resampler does.
    package func streamLargest(_ job: ImageJob, _ recipe: DerivativeRecipe)
        throws -> (bitmap: Bitmap, seconds: [ImagingPhase: Double], warnings: [String])?
    {
        guard let target = streamTarget(job, recipe) else { return nil }
        let clock = ContinuousClock.now
        let converter = job.iccProfile.flatMap(ColorManagement.BandConverter.init)
        let decoded = try JPEGRows.decode(
            job.data, size: job.decodeSize,
            convert: converter.map { converter in { converter.convert($0, count: $1) } }
        ) { rows in
            try Resampler.resizeFixed(
                job.decodeSize, to: target, region: job.decodeContent, linearLight: recipe.linearLight
            ) {
                try rows.rows($0, $1, bandRows: Resampler.band)
            }
        }
        let bitmap = Orientation.apply(job.exif.orientation, to: decoded.result)
        return (bitmap, [.decode: decoded.seconds, .resize: clock.secondsElapsed - decoded.seconds], decoded.warnings)
    }

    /// The pixels `render` holds at once at most, for the pipeline's budget: for a JPEG that streams,
    /// its largest derivative (as the whole decode counts alone, not the sizes made from it); else the
    /// whole decode.
    package func heldPixels(_ job: ImageJob) -> Int {
        let recipe = DerivativeRecipe(plan: job.plan, display: job.display, settings: settings)
        return streamTarget(job, recipe)?.pixelCount ?? job.decodeSize.pixelCount
    }

    /// The size the first derivative is resampled to as the photo decodes, in the stored
    /// orientation; nil when the photo needs its whole decode.
    private func streamTarget(_ job: ImageJob, _ recipe: DerivativeRecipe) -> PixelSize? {
        guard job.format == .jpeg, let header = job.jpegHeader, !header.isCMYK, let first = recipe.steps.first,
            first.source == nil, recipe.steps.dropFirst().allSatisfy({ $0.source != nil })
        else { return nil }
        let target = Orientation.displaySize(of: first.derivative.size, orientation: job.exif.orientation)
        let region = job.decodeContent
        let reduction = max(region.width / Double(target.width), region.height / Double(target.height))
        return reduction > 1 && reduction <= Resampler.floatBeyond ? target : nil
    }
}
