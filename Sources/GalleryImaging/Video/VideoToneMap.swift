import Foundation
import GalleryModel

/// How an HDR or wide-gamut clip becomes SDR that looks right: the ffmpeg filters that take its
/// decoded frames to linear light, tone-map them and encode them as BT.709 (the web file) or sRGB
/// (the poster). Left as they are, a phone's HLG or PQ frames come out washed out and dull on every
/// SDR screen and in every browser that ignores the tags, which is most of them.
///
/// The numbers were chosen on the test chart (`HDRVideoTests`, docs/benchmarks.md): the ColorChecker
/// patches encoded as HLG and PQ with diffuse white at 203 nits, tone-mapped back. Of Debian 12's
/// ffmpeg filters, `tonemap` with the Möbius curve keeps the patches (mean CIEDE2000 under 0.5) and
/// rolls the highlights above diffuse white off smoothly; Hable's curve darkens the mid-tones
/// (ΔE 8 to 18), Reinhard's shifts them (5) and clipping loses every highlight. `libplacebo` needs
/// a Vulkan device, which a build machine rarely has ("Function not implemented" without one).
package enum VideoToneMap {
    /// The nits of an HDR clip's diffuse white: BT.2408's reference white, 203 cd/m², for PQ and
    /// for HLG on its 1000-nit reference display. Linear 1.0 after the first filter is this.
    static let referenceWhite = 203.0
    /// The brightest nits kept apart from white: HLG's nominal display peak (BT.2100) and the
    /// mastering peak of most phones' PQ clips; brighter PQ highlights become white.
    package static let peak = 1000.0
    /// Where the Möbius curve leaves the straight line, in linear light relative to diffuse white:
    /// below it (sRGB 188 of 255) nothing changes; above it highlights are compressed up to `peak`.
    static let transition = 0.5

    /// What a converted clip's cache keys add, so that a change here remakes its web file and poster.
    package static var recipe: String {
        "linear npl=\(referenceWhite) mobius param=\(transition) peak=\(peak) desat=0 to bt709"
    }

    /// What the filters make.
    package enum Target: Sendable {
        /// BT.709 (primaries, transfer and matrix), limited range, 4:2:0: the web file's frames.
        case web
        /// sRGB, full range, 8-bit RGB: the poster's pixels.
        case poster
    }

    /// The filters from a decoded (scaled, upright) frame to `target`'s pixels, for a clip whose
    /// colour needs converting; nil for any other clip.
    package static func filters(_ colour: VideoColour?, to target: Target) -> String? {
        guard let colour, colour.isWide else { return nil }
        // The input is named from the tags ffprobe read (the frames say the same), with BT.2020's
        // where a phone left one out, so that zscale never guesses.
        let input = [
            "tin=\(known(colour.transfer, in: transfers) ?? (colour.hdr == nil ? "bt2020-10" : "arib-std-b67"))",
            "pin=\(known(colour.primaries, in: primaries) ?? "bt2020")",
            "min=\(known(colour.matrix, in: matrices) ?? "bt2020nc")",
            "rin=\(colour.range == "pc" ? "full" : "limited")"
        ].joined(separator: ":")
        let out =
            switch target {
            case .web: "zscale=t=bt709:m=bt709:r=limited,format=yuv420p"
            case .poster: "zscale=t=iec61966-2-1:r=full,format=gbrp,format=rgb24"
            }
        guard colour.hdr != nil else {
            // Wide-gamut SDR: to BT.709's primaries in linear light; nothing to tone-map.
            return "zscale=\(input):t=linear,format=gbrpf32le,zscale=p=bt709," + out
        }
        let npl = String(format: "%g", referenceWhite)
        let param = String(format: "%g", transition)
        let top = String(format: "%.4f", peak / referenceWhite)
        return "zscale=\(input):t=linear:npl=\(npl),format=gbrpf32le,zscale=p=bt709,"
            + "tonemap=mobius:param=\(param):desat=0:peak=\(top)," + out
    }

    /// The output tags of a converted web file, so that a player never reads it as HDR.
    static let webTags = ["-color_primaries", "bt709", "-color_trc", "bt709", "-colorspace", "bt709"]

    /// `value` when zscale knows it by that name, else nil.
    private static func known(_ value: String?, in names: Set<String>) -> String? {
        value.flatMap { names.contains($0) ? $0 : nil }
    }

    // The names ffprobe and zscale share.
    private static let transfers: Set = [
        "bt709", "smpte170m", "bt470m", "bt470bg", "linear", "bt2020-10", "bt2020-12", "smpte2084", "iec61966-2-1",
        "arib-std-b67"
    ]
    private static let primaries: Set = ["bt709", "bt470m", "bt470bg", "smpte170m", "smpte240m", "bt2020", "smpte432"]
    private static let matrices: Set = ["bt709", "bt470bg", "smpte170m", "bt2020nc", "bt2020c"]
}
