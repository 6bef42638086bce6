import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel

extension FuzzHarness {
    /// Camera raw files as the images step reads them: the sniff (LibRaw asked about any TIFF), LibRaw's
    /// header, then the embedded preview or a development, at small sizes under a 1-megapixel cap:
    /// LibRaw develops 1.5 MP of garbage in 0.2 s, but the Lanczos reduction of a 9728×160 result to
    /// 48 px took over a second in this unoptimised, AddressSanitizer build (a timeout, not a hang).
    /// LibRaw itself is Debian's build, without coverage counters: the fuzzer steers by the Swift
    /// around it, and AddressSanitizer's allocator still catches a double free or a leak in it.
    static let raw = FuzzHarness(
        name: "raw",
        summary: "camera raw through ImageProcessor.process (sniff, RAWCodec header, preview or LibRaw development)"
    ) { data in
        guard let format = ImageFormat.recognise(data), format == .raw || format == .tiff else { return nil }
        // The last byte picks the policy, so the fuzzer reaches both the preview and the development.
        let policy: RawPolicy = (data.last ?? 0) & 1 == 0 ? .preview : .develop
        let settings = ImageSettings(
            thumbnail: 24, preview: 48, widths: [], quality: 70, background: RGB(red: 255, green: 255, blue: 255),
            maxPixels: 1_000_000, publishOriginals: .none, showLocation: false, linearLight: false,
            exifFields: [], gridSteps: false, raw: policy)
        _ = try? ImageProcessor(settings: settings).process(data, folder: "x")
        return nil
    }
}
