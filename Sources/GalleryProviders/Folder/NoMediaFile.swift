import Foundation

/// Android's `.nomedia` marker, which galleries on the phone obey: an empty one says nothing in its
/// folder or below is media; galleryssg also reads one that lists names, one per line, as hiding
/// just those files and sub-folders.
enum NoMediaFile {
    /// The most bytes read; a longer file is read as far as this.
    static let maxBytes = 64 * 1024

    /// The names the file lists, or nil when it lists none (empty, blank, or unreadable: a marker
    /// that cannot be read hides its whole folder rather than publish what it may have meant to hide).
    static func names(in path: String) -> Set<String>? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maxBytes), !data.isEmpty else { return nil }
        let names = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
            .filter { !$0.isEmpty && !$0.contains("/") && $0 != "." && $0 != ".." }
        return names.isEmpty ? nil : Set(names)
    }
}
