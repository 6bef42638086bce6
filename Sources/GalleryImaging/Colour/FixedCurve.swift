/// A transfer curve in fixed point: byte to an Int16 sample (0…`one`), and every sample back to a byte.
package struct FixedCurve: Sendable {
    /// 255 × 64: the identity curve is exact, and linear light keeps about 14 bits, finer than
    /// every step of the sRGB curve (its darkest step is 5 units).
    package static let one = 255 * 64
    package let decode: [Int16]
    package let encode: [UInt8]

    /// sRGB (IEC 61966-2-1): filtering happens in linear light.
    package static let sRGB = FixedCurve(
        decode: (0..<256).map { Int16((Transfer.linear(Double($0) / 255) * Double(one)).rounded()) },
        encode: (0...one).map { UInt8(max(0, min(255, (Transfer.gamma(Double($0) / Double(one)) * 255).rounded()))) })

    /// No curve: filtering happens on the stored values.
    package static let identity = FixedCurve(
        decode: (0..<256).map { Int16($0 * 64) },
        encode: (0...one).map { UInt8(min(255, (Double($0) / 64).rounded())) })
}
