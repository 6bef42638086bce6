import Foundation

/// The theme compiled into the binary from the repository's `Templates/` folder.
public enum DefaultTheme {
    /// Every file of the default theme, keyed by its path relative to `Templates/`.
    public static let files: [String: Data] = {
        var result: [String: Data] = [:]
        for entry in encodedFiles {
            result[entry.path] = Data(base64Encoded: entry.base64)
        }
        return result
    }()
}
