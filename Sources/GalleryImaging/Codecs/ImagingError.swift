import GalleryModel

/// Why an original could not be turned into derivatives.
///
/// Callers that act on the problem switch on `kind`, never on the words. The format helper
/// (`format(.jpeg, …)`) names the format in the words; a decoder's reason is `damaged` unless its
/// site says otherwise.
package struct ImagingError: KindedError, Equatable {
    package enum Kind: Sendable, Equatable {
        /// The file is no image galleryssg reads: empty, text, a web page, a PDF… (`firstBytes` holds its start).
        case notAnImage
        /// Over a configured limit: `images.maxPixels`, or a video's `maxPixels`, `maxBytes` or `maxSeconds`.
        case overLimit
        /// The file is damaged or truncated: its decoder, or ffprobe, could not read it.
        case damaged
        /// The file reads, but holds what galleryssg does not publish (a raw preview in another form, no
        /// video stream), or is too large for the format a derivative is encoded in.
        case unsupported
        /// A camera raw file, with `images.raw` set to `"skip"`.
        case rawSkipped
        /// A tool or codec the build needs is not installed, or would not start (ffmpeg, an AV1 encoder).
        case toolMissing
        /// A codec or tool failed for a reason that is not the file's: out of memory, an encoder that
        /// wrote nothing, a tool stopped at its time limit.
        case toolFailed
    }

    package let kind: Kind
    package let description: String
    /// For a file that is no image, its first bytes in hex (`74 68 69 73`), for `--report` only.
    package let firstBytes: String?
    /// For a clip: what ffprobe or ffmpeg printed when it failed, for `--report` only (the
    /// description says it in words, `ClipProblem`).
    package let toolOutput: String?

    package init(_ kind: Kind, description: String, firstBytes: String? = nil, toolOutput: String? = nil) {
        self.kind = kind
        self.description = description
        self.firstBytes = firstBytes
        self.toolOutput = toolOutput
    }

    package static func tooManyPixels(_ size: PixelSize, limit: Int) -> ImagingError {
        ImagingError(
            .overLimit,
            description: "\(size) is \(size.pixelCount) pixels, over the \(limit)-pixel limit (images.maxPixels)")
    }

    /// What a format helper's words begin with: the format, or the kind of file, a codec or tool read.
    package enum Format: String, Sendable {
        case jpeg = "JPEG", png = "PNG", webp = "WebP", heif = "HEIF", tiff = "TIFF", gif = "GIF"
        case video
        case raw = "camera raw"
    }

    /// A codec's or tool's problem with a file of `format`, in words that name it (`JPEG: not a JPEG
    /// stream`); `damaged` unless the throwing site says otherwise.
    package static func format(
        _ format: Format, _ message: String, kind: Kind = .damaged, toolOutput: String? = nil
    ) -> ImagingError {
        ImagingError(kind, description: "\(format.rawValue): \(message)", toolOutput: toolOutput)
    }

    /// A video met on a machine without Debian's `ffmpeg` package.
    package static let noFFmpeg = format(
        .video,
        "ffmpeg is not installed, so videos are not published; install ffmpeg (Debian: sudo apt install ffmpeg) and build again",
        kind: .toolMissing)
}
