import Foundation

/// How a gain map turns a JPEG's SDR picture into its HDR rendition, in each form a file may say
/// it: Adobe's `hdrgm` XMP (Ultra HDR), an ISO 21496-1 block, or Apple's `HDRGainMap` XMP. A file
/// may carry more than one; each found is written out again with the gain map.
package struct GainMapMetadata: Sendable, Equatable {
    package var adobe: AdobeGainMap?
    package var iso: ISOGainMapBlocks?
    package var apple: AppleGainMap?

    package init(adobe: AdobeGainMap? = nil, iso: ISOGainMapBlocks? = nil, apple: AppleGainMap? = nil) {
        self.adobe = adobe
        self.iso = iso
        self.apple = apple
    }

    package var isEmpty: Bool { adobe == nil && iso == nil && apple == nil }
}

/// The `hdrgm` values of Adobe's gain map specification 1.0, which Ultra HDR uses: every log2
/// value per channel (one value, or red, green and blue).
package struct AdobeGainMap: Sendable, Equatable {
    package var gainMapMin: [Double]
    package var gainMapMax: [Double]
    package var gamma: [Double]
    package var offsetSDR: [Double]
    var offsetHDR: [Double]
    var hdrCapacityMin: Double
    var hdrCapacityMax: Double
    var baseRenditionIsHDR: Bool

    /// The values from the XMP fields (name → one value, or three), with the specification's
    /// defaults for those left out; nil when `GainMapMax` or `HDRCapacityMax` is missing or any value
    /// is not a finite number (or a gamma not above zero).
    package init?(fields: [String: [String]]) {
        func values(_ name: String, _ fallback: Double?) -> [Double]? {
            guard let texts = fields[name] else { return fallback.map { [$0] } }
            let numbers = texts.compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.count == texts.count, [1, 3].contains(numbers.count), numbers.allSatisfy(\.isFinite),
                numbers.allSatisfy({ abs($0) < 1e6 })
            else { return nil }
            return numbers
        }
        guard let min = values("GainMapMin", 0), let max = values("GainMapMax", nil),
            let gamma = values("Gamma", 1), gamma.allSatisfy({ $0 > 0 }),
            let offsetSDR = values("OffsetSDR", 1 / 64), let offsetHDR = values("OffsetHDR", 1 / 64),
            let capacityMin = values("HDRCapacityMin", 0), capacityMin.count == 1,
            let capacityMax = values("HDRCapacityMax", nil), capacityMax.count == 1
        else { return nil }
        gainMapMin = min
        gainMapMax = max
        self.gamma = gamma
        self.offsetSDR = offsetSDR
        self.offsetHDR = offsetHDR
        hdrCapacityMin = capacityMin[0]
        hdrCapacityMax = capacityMax[0]
        baseRenditionIsHDR = fields["BaseRenditionIsHDR"]?.first?.lowercased() == "true"
    }
}

/// ISO 21496-1 metadata as the file held it: the primary image's block (its version alone) and the
/// gain map image's block (every value). Both hold numbers only, so they are copied byte for byte.
package struct ISOGainMapBlocks: Sendable, Equatable {
    /// The `APP2` body's prefix: the standard's URN and a NUL.
    package static let signature: [UInt8] = Array("urn:iso:std:iso:ts:21496:-1".utf8) + [0]
    /// The longest block copied: three channels of fractions need about 120 bytes.
    package static let maxBytes = 1024

    /// The primary image's `APP2` body, when it had one.
    package var primary: Data?
    /// The gain map image's `APP2` body.
    package var gainMap: Data

    package init?(primary: Data?, gainMap: Data) {
        // Version fields (4 bytes), then at least a flags byte and two headrooms.
        guard gainMap.count >= Self.signature.count + 13, gainMap.count <= Self.maxBytes,
            primary.map({ $0.count <= Self.maxBytes }) ?? true
        else { return nil }
        self.primary = primary
        self.gainMap = gainMap
    }
}

/// Apple's gain map XMP (iPhone JPEG exports since iOS 17): its version and the headroom, the
/// brightest HDR pixel as a multiple of SDR white.
package struct AppleGainMap: Sendable, Equatable {
    package var version: Int
    package var headroom: Double

    package init?(version: String?, headroom: String?) {
        guard let version = version.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }),
            let headroom = headroom.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }),
            headroom.isFinite, headroom >= 1, headroom < 1e4
        else { return nil }
        self.version = version
        self.headroom = headroom
    }
}
