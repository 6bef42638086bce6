import Foundation

/// The theme compiled into the binary from the repository's `Templates/` folder.
package enum DefaultTheme {
    /// Every file of the default theme, keyed by its path relative to `Templates/`.
    package static let files: [String: Data] = {
        var result: [String: Data] = [:]
        for entry in encodedFiles {
            result[entry.path] = Data(base64Encoded: entry.base64)
        }
        return result
    }()
}
