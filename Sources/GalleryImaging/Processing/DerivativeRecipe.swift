import Foundation
import GalleryConfig
import GalleryModel

/// How each derivative of one original is made, in plan order: the pixels it is resampled from,
/// its size, and the sharpening it gets.
///
/// The one statement of that rule: `ImageProcessor` follows it to make the files, and
/// `ImageProcessor.keys` follows it to key them, so a file's key always covers how it was made.
package struct DerivativeRecipe: Sendable {
    package struct Step: Sendable {
        package var derivative: Derivative
        /// The earlier step whose unsharpened pixels this size is resampled from; nil: the decoded
        /// original.
        package var source: Int?
        /// The unsharp-mask amount (`images.sharpen`) when the size is reduced enough to get it
        /// (`Sharpener.minimumReduction`); nil when it is not sharpened.
        package var sharpen: Double?
    }

    package var steps: [Step]
    /// Whether resampling works in linear light (`images.linearLight`).
    package var linearLight: Bool

    /// - Parameters:
    ///   - display: The original's size as seen, after EXIF orientation.
    package init(plan: DerivativePlan, display: PixelSize, settings: ImageSettings) {
        var made: [PixelSize] = []
        var steps: [Step] = []
        for derivative in plan.all {
            let source = Self.cascadeSourceIndex(for: derivative.size, made: made)
            made.append(derivative.size)
            let reduced = Double(display.longEdge) >= Double(derivative.size.longEdge) * Sharpener.minimumReduction
            steps.append(Step(derivative: derivative, source: source, sharpen: reduced ? settings.sharpen : nil))
        }
        self.steps = steps
        linearLight = settings.linearLight
    }

    /// The bitmap a derivative is resized from, as an index into the sizes already made: the
    /// smallest one that is at least twice as wide (a clean reduction from plenty of detail), else
    /// the smallest larger one; nil means the decoded base.
    ///
    /// Resampling cost grows with the source's pixel count, so this cascade makes the small sizes
    /// from the preview instead of from the full decode, as `vipsthumbnail` does when chained. It
    /// works on sizes alone so that cache keys can follow the same chain without decoding.
    static func cascadeSourceIndex(for size: PixelSize, made: [PixelSize]) -> Int? {
        let larger = made.indices.filter { made[$0].width > size.width && made[$0].height >= size.height }
            .sorted { (made[$0].width, $0) < (made[$1].width, $1) }
        return larger.first { made[$0].width >= size.width * 2 } ?? larger.first
    }
}
