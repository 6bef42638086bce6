import Foundation
import GalleryKeys

/// Why ffprobe or ffmpeg could not read a clip, in a person's words: what ffmpeg printed
/// ("moov atom not found", "Invalid data found when processing input") sorted into the few things
/// that happen to video files, each with what to do. ffmpeg's own text goes to `--report` only
/// (`ImagingError.toolOutput`); these words are made here and nowhere else.
package enum ClipProblem: Sendable, Equatable {
    /// The file holds no bytes.
    case empty
    /// The file stops before its video does: an MP4 without its index (`moov`), a stream cut short.
    case truncated
    /// The container holds no video stream, only sound (or nothing at all).
    case noVideoStream
    /// ffmpeg does not decode the video's codec, named when it says which.
    case unknownCodec(String?)
    /// ffmpeg finds no container it knows in the bytes.
    case unreadable
    /// The video stream gives no frame size.
    case noFrameSize
    /// The video stream claims a frame size no decoder accepts (`65535x65535`), as ffmpeg printed it.
    case impossibleFrameSize(String)
    /// The container gives no duration.
    case noDuration
    /// No frame of the video could be decoded (for its poster).
    case noFrame
    /// Anything else ffmpeg refused; its words are in `--report`.
    case damaged

    /// The problem ffmpeg's or ffprobe's `stderr` describes.
    package init(toolOutput: String) {
        let text = toolOutput.lowercased()
        func says(_ phrases: String...) -> Bool { phrases.contains { text.contains($0) } }
        if let size = toolOutput.firstMatch(of: /[Pp]icture size (\d+x\d+) is invalid/) {
            self = .impossibleFrameSize(String(size.output.1))
        } else if says("moov atom not found", "partial file", "truncat", "end of file", "premature", "stream ends") {
            self = .truncated
        } else if let codec = text.firstMatch(of: /decoder \(codec ([a-z0-9_]+)\) not found/) {
            self = .unknownCodec(String(codec.output.1))
        } else if says(
            "unknown codec", "codec not currently supported", "unsupported codec", "no decoder", "decoder not found")
        {
            self = .unknownCodec(nil)
        } else if says("does not contain any stream", "no video stream") {
            self = .noVideoStream
        } else if says("invalid data found when processing input", "format not recognized", "could not find codec") {
            self = .unreadable
        } else {
            self = .damaged
        }
    }

    /// What is wrong and what to do, for the build's output and its report.
    package var words: String {
        switch self {
        case .empty: "the file is empty (0 bytes); replace it or remove it"
        case .truncated:
            "the file ends before its video does (truncated: an interrupted copy or recording?); copy it again from the camera or phone"
        case .noVideoStream:
            "an audio file: it has no video stream, so there is nothing to show (galleryssg publishes photos and video clips)"
        case .unknownCodec(let codec):
            "ffmpeg does not know this codec\(codec.map { " (\($0))" } ?? ""); convert the clip to H.264, or install an ffmpeg that reads it"
        case .unreadable: "ffmpeg finds no video it knows in it: the file is damaged, or not a video"
        case .noFrameSize: "its video stream has no frame size (damaged)"
        case .impossibleFrameSize(let size):
            "its video stream claims a \(size) frame, which no decoder accepts (damaged)"
        case .noDuration: "it has no duration (damaged or truncated)"
        case .noFrame: "no frame of its video could be decoded (damaged)"
        case .damaged: "ffmpeg cannot read it: the file is damaged (ffmpeg's own words are in --report)"
        }
    }

    /// How callers act on it: a codec or a file without video is unsupported, the rest damaged.
    package var kind: ImagingError.Kind {
        switch self {
        case .noVideoStream, .unknownCodec: .unsupported
        default: .damaged
        }
    }
}

extension ImagingError {
    /// A clip ffprobe or ffmpeg could not read, in words (`ClipProblem`), with what the tool printed
    /// kept for `--report`.
    package static func clip(_ problem: ClipProblem, toolOutput: String? = nil) -> ImagingError {
        format(.video, problem.words, kind: problem.kind, toolOutput: toolOutput)
    }

    /// A clip whose tool run failed, explained from what the tool printed.
    package static func clip(toolOutput: String) -> ImagingError {
        clip(ClipProblem(toolOutput: toolOutput), toolOutput: toolOutput)
    }
}

extension VideoEncoder {
    /// Which ffmpeg and ffprobe these are: each one's path, size and modification time, and the
    /// version of the code that runs them. A clip that failed is tried again when this changes
    /// (an upgraded ffmpeg may read it); nil without the tools.
    package var fingerprint: String? {
        guard let tools else { return nil }
        let stamps = [tools.ffmpeg.path, tools.ffprobe.path].map { path in
            // `FileStamp.of` follows links: Debian's alternatives, a Homebrew cellar.
            let stamp = FileStamp.of(path)
            return "\(path) \(stamp?.size ?? -1) \(stamp?.modified ?? -1)"
        }
        return (["v\(Self.version)"] + stamps).joined(separator: "; ")
    }
}
