import Foundation

/// Text from a manifest, an API or a file's metadata, made safe to keep: every such value is hostile.
package enum UntrustedText {
    /// Trims, drops control characters (other than newline and tab) and caps the length; nil when empty.
    package static func clean(_ value: String, max: Int) -> String? {
        // Most values are short printable ASCII with nothing to trim: nothing to do.
        let bytes = value.utf8
        if bytes.count <= max, let first = bytes.first, let last = bytes.last, first != 0x20, last != 0x20,
            bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7f })
        {
            return value
        }
        let scalars = value.unicodeScalars.filter { scalar in
            scalar == "\n" || scalar == "\t"
                || !(scalar.value < 0x20 || (0x7f...0x9f).contains(scalar.value)
                    || (0xfdd0...0xfdef).contains(scalar.value) || scalar.value & 0xfffe == 0xfffe)
        }
        let cleaned = String(String.UnicodeScalarView(scalars)).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !cleaned.isEmpty else { return nil }
        return cleaned.count > max ? String(cleaned.prefix(max)) + "…" : cleaned
    }
}
