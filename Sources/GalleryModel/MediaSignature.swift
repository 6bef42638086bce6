import Foundation

/// What a file that is no still image holds, told from its first bytes: a video container that
/// ffprobe then reads, or sound alone, which a gallery does not publish.
package enum MediaKind: String, Sendable, Equatable {
    case video, audio
}

/// The signatures of the video and audio containers ffmpeg reads, so that a file is sent to
/// `ffprobe` (which decides) by its content, never by its name: an Ogg file named `.webm` is still
/// a clip, and a Vorbis song named `.ogg` is still audio.
///
/// Only a file's first `prefixLength` bytes are looked at; Ogg puts every stream's first page
/// there (RFC 3533 §4: all beginning-of-stream pages come first), which names each stream's codec.
package enum MediaSignature {
    /// How many of a file's first bytes are enough to tell.
    package static let prefixLength = 4096

    /// The kind of media `head` starts as, or nil when it is neither (a still image included).
    package static func kind(of head: Data) -> MediaKind? {
        let bytes = [UInt8](head.prefix(prefixLength))
        if ImageFormat.recognise(head) != nil { return nil }
        if let kind = isobmff(bytes) { return kind }
        if bytes.starts(with: [0x1a, 0x45, 0xdf, 0xa3]) { return .video }  // EBML: Matroska, WebM
        if text(bytes, "RIFF", at: 0) {
            if text(bytes, "AVI ", at: 8) { return .video }
            if text(bytes, "WAVE", at: 8) { return .audio }
        }
        if text(bytes, "OggS", at: 0) { return ogg(bytes) }
        // FLV: "FLV", version 1, then flags: 4 for audio, 1 for video.
        if text(bytes, "FLV", at: 0), bytes.count > 4, bytes[3] == 1 {
            return bytes[4] & 0x01 == 0 && bytes[4] & 0x04 != 0 ? .audio : .video
        }
        if bytes.starts(with: [0x00, 0x00, 0x01, 0xba]) { return .video }  // MPEG program stream: VOB, MPG
        if bytes.starts(with: [0x00, 0x00, 0x01, 0xb3]) { return .video }  // MPEG-1/2 video sequence (.m1v, .m2v)
        if bytes.starts(with: [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11]) { return .video }  // ASF: WMV (WMA too)
        // MPEG transport: a sync byte every 188 bytes (or 192, after a 4-byte time stamp, in M2TS).
        if bytes.count >= 377, bytes[0] == 0x47, bytes[188] == 0x47, bytes[376] == 0x47 { return .video }
        if bytes.count >= 197, bytes[4] == 0x47, bytes[196] == 0x47 { return .video }
        if text(bytes, ".RMF", at: 0) { return .video }  // RealMedia
        return audio(bytes) ? .audio : nil
    }

    /// Whether `bytes` holds `value` at `offset`.
    private static func text(_ bytes: [UInt8], _ value: String, at offset: Int) -> Bool {
        let wanted = Array(value.utf8)
        return bytes.count >= offset + wanted.count && Array(bytes[offset..<(offset + wanted.count)]) == wanted
    }

    /// ISO base media and QuickTime files (MP4, MOV, M4V, 3GP) that are no HEIF/AVIF still or camera
    /// raw (`ImageFormat` took those): audio when the major brand says so (`M4A `, `M4B `, `M4P `).
    private static func isobmff(_ bytes: [UInt8]) -> MediaKind? {
        if text(bytes, "ftyp", at: 4) {
            let major = bytes.count >= 12 ? String(decoding: bytes[8..<12], as: UTF8.self) : ""
            return ["M4A ", "M4B ", "M4P ", "F4A ", "F4B "].contains(major) ? .audio : .video
        }
        if text(bytes, "moov", at: 4) || text(bytes, "mdat", at: 4) || text(bytes, "wide", at: 4)
            || (text(bytes, "free", at: 4) && bytes.count > 12) || (text(bytes, "skip", at: 4) && bytes.count > 12)
        {
            return .video
        }
        return nil
    }

    /// An Ogg file's kind from its streams' first packets (each codec's identification header):
    /// Theora, Dirac, VP8 or Daala make it a clip; Vorbis, Opus, FLAC or Speex alone, audio. A
    /// stream this does not know is left to ffprobe, as a clip.
    private static func ogg(_ bytes: [UInt8]) -> MediaKind {
        let data = Data(bytes)
        let video: [[UInt8]] = [
            [0x80] + Array("theora".utf8), Array("BBCD".utf8), Array("OVP80".utf8),
            [0x80] + Array("daala".utf8)
        ]
        if video.contains(where: { data.range(of: Data($0)) != nil }) { return .video }
        let sound: [[UInt8]] = [
            [0x01] + Array("vorbis".utf8), Array("OpusHead".utf8), [0x7f] + Array("FLAC".utf8),
            Array("Speex   ".utf8)
        ]
        return sound.contains(where: { data.range(of: Data($0)) != nil }) ? .audio : .video
    }

    /// Sound-only formats: MP3 (an ID3 tag, or an MPEG audio frame's sync), AAC in ADTS, FLAC,
    /// AIFF, AMR, Monkey's Audio, WavPack and Musepack.
    private static func audio(_ bytes: [UInt8]) -> Bool {
        if text(bytes, "ID3", at: 0) || text(bytes, "fLaC", at: 0) || text(bytes, "#!AMR", at: 0)
            || text(bytes, "MAC ", at: 0) || text(bytes, "wvpk", at: 0) || text(bytes, "MPCK", at: 0)
        {
            return true
        }
        if text(bytes, "FORM", at: 0), text(bytes, "AIFF", at: 8) || text(bytes, "AIFC", at: 8) { return true }
        // An MPEG audio frame header (11 sync bits, a layer that is not 00) or ADTS (layer 00, 0xFFF).
        guard bytes.count >= 4, bytes[0] == 0xff, bytes[1] & 0xe0 == 0xe0 else { return false }
        let layer = (bytes[1] >> 1) & 0x03
        let version = (bytes[1] >> 3) & 0x03
        return (layer != 0 && version != 1 && bytes[2] & 0xf0 != 0xf0) || (bytes[1] & 0xf6 == 0xf0)
    }
}

/// Whether a file's first bytes look like a video container (`MediaSignature`), so that a file is
/// sent to `ffprobe` (which decides) by its content, never by its name.
package enum VideoSignature {
    /// Whether `head` (a file's first bytes, up to `MediaSignature.prefixLength`) starts as a video
    /// container does: an ISO base media or QuickTime file (MP4, MOV, M4V, 3GP) that is no HEIF/AVIF
    /// still or camera raw, Matroska or WebM, AVI, Ogg with a video stream (Theora), FLV, MPEG-2
    /// transport (TS, MTS, M2TS) or program stream (VOB, MPG), ASF (WMV) or RealMedia.
    package static func matches(_ head: Data) -> Bool { MediaSignature.kind(of: head) == .video }
}
