import Foundation
import GalleryModel

/// What a video file is, as `ffprobe` reads it from the container: its technical facts (`info`, which
/// the build state keeps), enough to check the limits, plan its poster and web video, and show its
/// facts on its page; and what the container says of when, with what and where it was shot.
package struct VideoFacts: Sendable, Equatable {
    /// Duration, frame size, rotation, codecs, container, size, bit rate and colour tags (the
    /// video stream's: HLG or PQ for a phone's HDR clip), which the build state keeps.
    package var info: VideoInfo
    /// The capture time as ISO 8601, from the container's `creation_time` (UTC) or Apple's own key.
    package var takenAt: String?
    /// The camera, from Apple's or Android's keys.
    package var camera = CameraInfo()
    /// Where it was shot (ISO 6709 in `location` or Apple's key); never published unless the site
    /// shows locations, and never inside a published file.
    package var location: GeoPoint?
}

/// The limits a video must keep, each from a config key, so that a hostile or mistaken file cannot
/// hold a build for hours.
package struct VideoLimits: Sendable, Equatable {
    package var maxSeconds: Double
    package var maxPixels: Int
    package var maxBytes: Int

    package init(maxSeconds: Double, maxPixels: Int, maxBytes: Int) {
        self.maxSeconds = maxSeconds
        self.maxPixels = maxPixels
        self.maxBytes = maxBytes
    }
}

/// Runs `ffprobe` on one file and reads its JSON answer.
package enum VideoProbe {
    /// The longest `ffprobe` may take on one file, in seconds.
    package static let timeout = 30.0

    /// Probes `file` with `ffprobe` (the `file:` protocol, so that no name is read as an option or
    /// another protocol) and checks the limits.
    /// - Throws: `ImagingError` in words: no video stream, damaged, over a limit, or ffprobe's reason.
    package static func probe(_ file: URL, ffprobe: MediaTool, limits: VideoLimits) async throws -> VideoFacts {
        let bytes = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
        guard bytes > 0 else { throw ImagingError.clip(.empty) }
        guard bytes <= limits.maxBytes else {
            throw ImagingError.format(
                .video,
                "\(ByteCount.text(bytes)) is over the \(ByteCount.text(limits.maxBytes)) limit (video.maxBytes)",
                kind: .overLimit)
        }
        let output = try await ffprobe.run(
            [
                "-v", "error", "-print_format", "json", "-show_format", "-show_streams",
                "file:" + file.path
            ], timeout: timeout)
        guard output.status == 0 else { throw ImagingError.clip(toolOutput: output.stderr) }
        let facts = try read(output.stdout, bytes: bytes)
        guard facts.info.duration <= limits.maxSeconds else {
            throw ImagingError.format(
                .video,
                "\(String(format: "%.1f", facts.info.duration)) s long, over the \(String(format: "%g", limits.maxSeconds)) s limit (video.maxSeconds)",
                kind: .overLimit)
        }
        guard facts.info.stored.pixelCount <= limits.maxPixels else {
            throw ImagingError.format(
                .video,
                "\(facts.info.stored) is \(facts.info.stored.pixelCount) pixels a frame, over the \(limits.maxPixels)-pixel limit (video.maxPixels)",
                kind: .overLimit)
        }
        return facts
    }

    /// ffprobe's JSON as facts.
    /// - Throws: `ImagingError` when it names no video stream, or no size or duration.
    package static func read(_ json: Data, bytes: Int) throws -> VideoFacts {
        guard let answer = try? JSONDecoder().decode(Answer.self, from: json) else {
            throw ImagingError.format(.video, "ffprobe's answer could not be read", kind: .toolFailed)
        }
        // Cover art in an audio file is a video stream of one picture: not a video.
        guard
            let video = answer.streams.first(where: { $0.codecType == "video" && $0.disposition?.attachedPicture != 1 })
        else {
            throw ImagingError.clip(.noVideoStream)
        }
        guard let width = video.width, let height = video.height, width > 0, height > 0 else {
            throw ImagingError.clip(.noFrameSize)
        }
        let duration = Double(answer.format?.duration ?? video.duration ?? "") ?? 0
        guard duration > 0, duration.isFinite else {
            throw ImagingError.clip(.noDuration)
        }
        let matrix = video.sideData?.first { $0.rotation != nil }?.rotation
        let turn = matrix.map { -$0 } ?? Double(video.tags?["rotate"] ?? "") ?? 0
        let rotation = ((Int(turn.rounded()) % 360) + 360) % 360
        let tags = (answer.format?.tags ?? [:]).merging(video.tags ?? [:]) { format, _ in format }
        let info = VideoInfo(
            duration: duration, stored: PixelSize(width: width, height: height),
            rotation: [0, 90, 180, 270].contains(rotation) ? rotation : 0,
            videoCodec: video.codecName ?? "unknown",
            audioCodec: answer.streams.first { $0.codecType == "audio" }?.codecName,
            frameRate: rate(video.averageFrameRate) ?? rate(video.frameRate), pixelFormat: video.pixelFormat,
            interlaced: ["tt", "bb", "tb", "bt"].contains(video.fieldOrder ?? ""),
            container: answer.format?.name ?? "", bytes: bytes, bitRate: Int(answer.format?.bitRate ?? ""),
            colour: VideoColour(
                primaries: tag(video.primaries), transfer: tag(video.transfer), matrix: tag(video.matrix),
                range: tag(video.range)))
        var facts = VideoFacts(info: info)
        facts.takenAt = tags["com.apple.quicktime.creationdate"] ?? tags["creation_time"]
        facts.camera = CameraInfo(
            make: tags["com.apple.quicktime.make"] ?? tags["com.android.manufacturer"],
            model: tags["com.apple.quicktime.model"] ?? tags["com.android.model"])
        facts.location = (tags["com.apple.quicktime.location.ISO6709"] ?? tags["location"]).flatMap(iso6709)
        return facts
    }

    /// `30000/1001` as 29.97; nil for `0/0`.
    private static func rate(_ text: String?) -> Double? {
        guard let parts = text?.split(separator: "/"), parts.count == 2, let top = Double(parts[0]),
            let bottom = Double(parts[1]),
            bottom > 0, top > 0
        else { return nil }
        return top / bottom
    }

    /// A colour tag as ffprobe gives it; nil for none or `unknown` (`unspecified`, `reserved`).
    private static func tag(_ text: String?) -> String? {
        guard let text, !text.isEmpty, !["unknown", "unspecified", "reserved"].contains(text) else { return nil }
        return text
    }

    /// `+48.8577+002.2950+035.0/` (ISO 6709, as phones write it) as a position; nil when out of range.
    package static func iso6709(_ text: String) -> GeoPoint? {
        let numbers = text.matches(of: /[+-]\d+(?:\.\d+)?/).compactMap { Double($0.output) }
        guard numbers.count >= 2, abs(numbers[0]) <= 90, abs(numbers[1]) <= 180 else { return nil }
        return GeoPoint(latitude: numbers[0], longitude: numbers[1])
    }

    // ffprobe's JSON (`-print_format json -show_format -show_streams`), the fields read.
    private struct Answer: Decodable {
        var streams: [Stream] = []
        var format: Format?
        enum CodingKeys: CodingKey { case streams, format }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            streams = try container.decodeIfPresent([Stream].self, forKey: .streams) ?? []
            format = try container.decodeIfPresent(Format.self, forKey: .format)
        }
    }

    private struct Stream: Decodable {
        var codecType: String?
        var codecName: String?
        var width: Int?
        var height: Int?
        var averageFrameRate: String?
        var frameRate: String?
        var pixelFormat: String?
        var fieldOrder: String?
        var duration: String?
        var tags: [String: String]?
        var sideData: [SideData]?
        var disposition: Disposition?
        var primaries: String?
        var transfer: String?
        var matrix: String?
        var range: String?
        enum CodingKeys: String, CodingKey {
            case codecType = "codec_type", codecName = "codec_name", width, height, averageFrameRate = "avg_frame_rate"
            case frameRate = "r_frame_rate", pixelFormat = "pix_fmt", fieldOrder = "field_order", duration, tags
            case sideData = "side_data_list", disposition
            case primaries = "color_primaries", transfer = "color_transfer", matrix = "color_space"
            case range = "color_range"
        }
    }

    private struct SideData: Decodable {
        var rotation: Double?
    }

    private struct Disposition: Decodable {
        var attachedPicture: Int?
        enum CodingKeys: String, CodingKey { case attachedPicture = "attached_pic" }
    }

    private struct Format: Decodable {
        var name: String?
        var duration: String?
        var tags: [String: String]?
        var bitRate: String?
        enum CodingKeys: String, CodingKey { case name = "format_name", duration, tags, bitRate = "bit_rate" }
    }
}
