import Foundation

/// How video clips are published (`video`): the limits a clip must keep, and what its web file is.
package struct VideoSettings: Sendable, Equatable {
    /// The longest clip published, in seconds (`video.maxSeconds`); a longer one is reported.
    package var maxSeconds: Int = Defaults.maxSeconds
    /// The largest clip file read, in bytes (`video.maxBytes`).
    package var maxBytes: Int = Defaults.maxBytes
    /// The most pixels in one frame (`video.maxPixels`).
    package var maxPixels: Int = Defaults.maxPixels
    /// The web file's shorter side at most (`video.maxHeight`): the height of a landscape clip, the
    /// width of a portrait one, so a phone's upright 1080p clip stays 1080×1920.
    package var maxHeight: Int = Defaults.maxHeight
    /// x264's constant rate factor for a clip that is encoded again (`video.quality`, 0–51: lower is better).
    package var crf: Int = Defaults.crf
    /// The web file's most bits a second; a clip over it is encoded again (`video.maxBitrate`).
    package var maxBitrate: Int = Defaults.maxBitrate
    /// Whether a Live Photo's clip is published with its still (`video.livePhotos`); when false the
    /// still alone is, and the clip is counted as ignored on purpose.
    package var livePhotos: Bool = Defaults.livePhotos

    package init(
        maxSeconds: Int = Defaults.maxSeconds, maxBytes: Int = Defaults.maxBytes, maxPixels: Int = Defaults.maxPixels,
        maxHeight: Int = Defaults.maxHeight, crf: Int = Defaults.crf, maxBitrate: Int = Defaults.maxBitrate,
        livePhotos: Bool = Defaults.livePhotos
    ) {
        self.maxSeconds = maxSeconds
        self.maxBytes = maxBytes
        self.maxPixels = maxPixels
        self.maxHeight = maxHeight
        self.crf = crf
        self.maxBitrate = maxBitrate
        self.livePhotos = livePhotos
    }

    /// The defaults: a phone's clips of up to 10 minutes, in 1080p at a quality that looks like the
    /// original on a laptop, at most 8 Mbit/s.
    package enum Defaults {
        package static let maxSeconds = 600
        package static let maxBytes = 4 << 30
        /// 8K (7680×4320) and a little more.
        package static let maxPixels = 40_000_000
        package static let maxHeight = 1080
        package static let crf = 23
        package static let maxBitrate = 8_000_000
        package static let livePhotos = true
    }
}
