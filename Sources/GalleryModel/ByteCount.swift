import Foundation

/// A byte count as people read it, for reports and the CLI: `12.3 KB` below a megabyte, else `4.5 MB`.
package enum ByteCount {
    package static func text(_ bytes: Int) -> String {
        bytes < 1_048_576
            ? String(format: "%.1f KB", Double(bytes) / 1024) : String(format: "%.1f MB", Double(bytes) / 1_048_576)
    }
}
