import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel

extension FuzzHarness {
    /// The JPEG decoder (libjpeg through `CJPEGRows`, whose C keeps its longjmp out of Swift) both ways
    /// the images step uses it: the largest size resampled band by band as the file decodes, and the
    /// whole decode. For an upright photo the two must agree exactly: the same pixels and warnings,
    /// or the same error. Sizes stay small under a 1-megapixel cap.
    static let jpegRows = FuzzHarness(
        name: "jpeg-rows",
        summary: "JPEGRows: ImageProcessor.streamLargest against the whole decode (pixels, warnings, errors)"
    ) { data in
        let settings = ImageSettings(
            thumbnail: 16, preview: 32, widths: [], quality: 70, background: RGB(red: 255, green: 255, blue: 255),
            maxPixels: 1_000_000, publishOriginals: .none, showLocation: false,
            linearLight: (data.last ?? 0) & 1 == 0, exifFields: [], gridSteps: false)
        let processor = ImageProcessor(settings: settings)
        guard let job = try? processor.inspect(data, folder: "x"), job.format == .jpeg else { return nil }
        let recipe = DerivativeRecipe(plan: job.plan, display: job.display, settings: settings)
        let streamed = Result { try processor.streamLargest(job, recipe) }
        guard job.exif.orientation == 1, let size = recipe.steps.first?.derivative.size else { return nil }
        let whole = Result { () throws -> (Bitmap, [String]) in
            let decoded = try processor.decodeUpright(job)
            return (
                Resampler.resize(decoded.bitmap, to: size, region: decoded.region, linearLight: recipe.linearLight),
                decoded.warnings
            )
        }
        switch (streamed, whole) {
        case (.success(let streamed?), .success(let whole)):
            return streamed.bitmap == whole.0 && streamed.warnings == whole.1
                ? nil : "streamed and whole decodes differ"
        case (.failure(let streamed), .failure(let whole)):
            return "\(streamed)" == "\(whole)" ? nil : "streamed failed with \(streamed), whole with \(whole)"
        case (.success(nil), _):
            return nil
        case (let streamed, let whole):
            return "streamed \(streamed), whole \(whole)"
        }
    }
}
