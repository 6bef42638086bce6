/// Why a photo whose XMP announces a motion photo's clip (`GCamera:MotionPhoto`, `MicroVideo`) is
/// published as a still: the clip is not where the XMP says. Stored in the build state with the
/// original's facts (its raw value), so every build warns of it; its words are made here.
package enum MotionPhotoProblem: String, Sendable, Codable, Equatable, CaseIterable {
    /// The XMP gives neither the clip's `Item:Length` nor a `MicroVideoOffset`.
    case noLength
    /// The length the XMP gives is the whole file or more: the clip was cut off.
    case lengthPastFile
    /// The bytes the length points to are no MP4 (no `ftyp` box): the clip was cut off or overwritten,
    /// as an editor that rewrites the image and keeps its XMP does.
    case notAnMP4

    /// The warning's words: what is wrong and what to do.
    package var words: String {
        let fix = "published as a still; copy the file again from the phone, or remove the motion photo's XMP"
        return switch self {
        case .noLength: "its XMP announces a motion photo's clip but gives no length for it; \(fix)"
        case .lengthPastFile: "its XMP announces a motion photo's clip longer than the file (cut off?); \(fix)"
        case .notAnMP4:
            "its XMP announces a motion photo's clip, but the file's last bytes are no MP4 (cut off, or rewritten by an editor); \(fix)"
        }
    }
}
