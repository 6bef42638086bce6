/// How AVIF derivatives are encoded: the Swift-only half of `HEIFCodec.encodeAVIF`, kept apart
/// so the measured choices and their reasons stand in one place (Benchmarks/avif.sh measures them;
/// docs/benchmarks.md has the figures).
extension HEIFCodec {
    /// libaom's speed (0 slowest, 9 fastest) through libheif. Part of every AVIF's cache key.
    static let avifSpeed = 6

    /// libheif's AV1 quality for the site's JPEG `quality`, so that the AVIF looks as good as the
    /// JPEG next to it (equal SSIM on luma over the benchmark corpus) in fewer bytes: AV1's scale
    /// reaches a given SSIM at a lower number than libjpeg's.
    package static func avifQuality(forJPEG quality: Int) -> Int {
        min(100, max(1, quality - avifQualityOffset))
    }

    /// How far below the JPEG quality the AVIF quality sits (see `avifQuality(forJPEG:)`).
    static let avifQualityOffset = 19
}
