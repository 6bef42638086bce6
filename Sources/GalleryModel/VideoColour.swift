import Foundation

/// How a clip's pixels are to be read, as its stream's colour tags say (ffprobe's names): enough to
/// tell a phone's HDR clip (HLG or PQ, BT.2020) from an SDR one, and so whether it must be
/// converted before an SDR screen shows it right.
package struct VideoColour: Sendable, Equatable, Codable {
    /// `bt709`, `bt2020`, `smpte170m`…; nil when untagged.
    package var primaries: String?
    /// `bt709`, `arib-std-b67` (HLG), `smpte2084` (PQ)…; nil when untagged.
    package var transfer: String?
    /// The YUV matrix: `bt709`, `bt2020nc`, `smpte170m`…; nil when untagged.
    package var matrix: String?
    /// `tv` (limited) or `pc` (full); nil when untagged.
    package var range: String?

    package init(primaries: String? = nil, transfer: String? = nil, matrix: String? = nil, range: String? = nil) {
        self.primaries = primaries
        self.transfer = transfer
        self.matrix = matrix
        self.range = range
    }

    /// The HDR transfer, or nil for SDR. iPhone Dolby Vision (profile 8.4) has an HLG base layer,
    /// which ffprobe reports as HLG.
    package var hdr: HDRTransfer? { transfer.flatMap(HDRTransfer.init(rawValue:)) }

    /// Whether the clip must be converted to BT.709 before an SDR screen shows it right: HDR, or
    /// BT.2020 primaries (a wide-gamut SDR clip, whose colours would otherwise come out dull).
    package var isWide: Bool { hdr != nil || primaries == "bt2020" }
}

/// The two HDR transfers of BT.2100, named as ffprobe names them.
package enum HDRTransfer: String, Sendable, Codable, CaseIterable {
    /// Hybrid log-gamma (ARIB STD-B67): phones' default (iPhone, Pixel).
    case hlg = "arib-std-b67"
    /// Perceptual quantizer (SMPTE ST 2084): HDR10, HDR10+, some Android phones.
    case pq = "smpte2084"

    /// `HLG`, `PQ`: as a person names it.
    package var name: String { self == .hlg ? "HLG" : "PQ" }
}

extension OriginalFacts {
    /// Whether the stored facts are a current galleryssg's: a clip's must say its colour, which
    /// galleryssg read only from the version that tone-maps HDR. A clip whose stored facts do not
    /// is probed again, so that its web file and poster are keyed (and remade) by its colour. A GIF's
    /// or WebP's must say whether it is animated (`motionClip`), which galleryssg read only from the
    /// version that publishes animations; one read before is read again.
    package var isCurrent: Bool {
        if format.canAnimate && motionClip == nil { return false }
        return video.map { $0.colour != nil } ?? true
    }
}
