import CLCMS2
import Foundation

/// Converts pixels from an embedded ICC profile to sRGB with Little CMS, the only file that imports it.
///
/// Photos in Adobe RGB, Display P3 or ProPhoto look muted or shifted when their profile is dropped
/// and the numbers are shown as if they were sRGB; converting once after decoding makes every
/// derivative right in any browser, with no profile to embed.
enum ColorManagement {
    /// The RGB profile's pixels converted to sRGB, or nil when the profile is sRGB already, unusable,
    /// or not an RGB profile.
    static func toSRGB(_ bitmap: Bitmap, profile: ICCProfile) -> Bitmap? {
        guard let transform = makeTransform(profile, inputFormat: rgb8, colorSpace: cmsSigRgbData) else { return nil }
        defer { cmsDeleteTransform(transform) }
        var output = PixelBuffers.take(bitmap.pixels.count)  // the transform writes every pixel
        bitmap.pixels.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                cmsDoTransform(transform, input.baseAddress, out.baseAddress, UInt32(bitmap.width * bitmap.height))
            }
        }
        return Bitmap(width: bitmap.width, height: bitmap.height, pixels: output)
    }

    /// `toSRGB` for pixels that arrive a band at a time (`JPEGRows`): converts them in place.
    final class BandConverter {
        private let transform: cmsHTRANSFORM
        private var scratch: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)

        /// Nil where `toSRGB` returns nil: the profile is sRGB already, unusable, or not RGB.
        init?(_ profile: ICCProfile) {
            guard let transform = makeTransform(profile, inputFormat: rgb8, colorSpace: cmsSigRgbData) else {
                return nil
            }
            self.transform = transform
        }

        deinit {
            cmsDeleteTransform(transform)
            scratch.deallocate()
        }

        func convert(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
            if scratch.count < count * 3 {
                scratch.deallocate()
                scratch = .allocate(capacity: count * 3)
            }
            cmsDoTransform(transform, pixels, scratch.baseAddress, UInt32(count))
            pixels.update(from: scratch.baseAddress!, count: count * 3)
        }
    }

    /// Converts Adobe-style inverted CMYK bytes (four a pixel, as libjpeg returns them) to sRGB bytes,
    /// or nil when the profile is not a usable CMYK profile.
    static func cmykToSRGB(_ cmyk: [UInt8], profile: ICCProfile) -> [UInt8]? {
        guard let transform = makeTransform(profile, inputFormat: cmyk8Reversed, colorSpace: cmsSigCmykData) else {
            return nil
        }
        defer { cmsDeleteTransform(transform) }
        let pixels = cmyk.count / 4
        var output = [UInt8](repeating: 0, count: pixels * 3)
        cmyk.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                cmsDoTransform(transform, input.baseAddress, out.baseAddress, UInt32(pixels))
            }
        }
        return output
    }

    // lcms2's TYPE_* macros are not imported into Swift; these are their values from lcms2.h.
    // TYPE_RGB_8 = COLORSPACE_SH(PT_RGB) | CHANNELS_SH(3) | BYTES_SH(1)
    private static let rgb8: UInt32 = (4 << 16) | (3 << 3) | 1
    // TYPE_CMYK_8_REV = COLORSPACE_SH(PT_CMYK) | CHANNELS_SH(4) | BYTES_SH(1) | FLAVOR_SH(1)
    private static let cmyk8Reversed: UInt32 = (6 << 16) | (4 << 3) | 1 | (1 << 13)

    private static func makeTransform(_ profile: ICCProfile, inputFormat: UInt32, colorSpace: cmsColorSpaceSignature)
        -> cmsHTRANSFORM?
    {
        let input = profile.data.withUnsafeBytes { cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }
        guard let input else { return nil }
        defer { cmsCloseProfile(input) }
        guard cmsGetColorSpace(input) == colorSpace, !(colorSpace == cmsSigRgbData && isSRGB(input)),
            let output = cmsCreate_sRGBProfile()
        else { return nil }
        defer { cmsCloseProfile(output) }
        return cmsCreateTransform(input, inputFormat, output, rgb8, UInt32(INTENT_PERCEPTUAL), 0)
    }

    /// Profiles that describe themselves as sRGB need no conversion (the common case for cameras and phones).
    private static func isSRGB(_ profile: cmsHPROFILE) -> Bool {
        var buffer = [CChar](repeating: 0, count: 256)
        let length = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        guard length > 0 else { return false }
        let text = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        return String(decoding: text, as: UTF8.self).lowercased().contains("srgb")
    }
}
