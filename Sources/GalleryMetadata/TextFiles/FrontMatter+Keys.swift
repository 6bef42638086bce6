import Foundation
import GalleryModel

/// Which keys a file holds: other tools' keys read as galleryssg's (`ForeignKeys`), and the rest
/// reported, never fatal.
extension FrontMatter {
    /// The same file with other tools' keys renamed to galleryssg's and the keys galleryssg has no use
    /// for left out; in header lines, keys are matched whatever their case.
    /// - Parameters:
    ///   - kind: The file's kind: an album's `index.md` or a photo's sidecar.
    ///   - known: The galleryssg keys such a file may hold.
    package func normalised(for kind: ForeignKeys.FileKind, known: [String]) -> FrontMatter {
        var result = self
        result.fields = [:]
        result.lines = [:]
        // Keys in line order, so that of a key written twice (`Thumbnail` and `cover`), galleryssg's own wins
        // and then the first.
        let ordered = fields.keys.sorted { (lines[$0] ?? 0, $0) < (lines[$1] ?? 0, $1) }
        for key in ordered {
            guard
                let name = ForeignKeys.galleryKey(key, kind: kind, known: known, headerLines: format == .headerLines)
            else { continue }
            if result.fields[name] != nil && (name != key || fields[name] == nil) { continue }
            result.fields[name] = fields[key]
            result.lines[name] = lines[key]
        }
        return result
    }

    /// The keys outside `known`, each as a warning naming its file, its line and the nearest known key.
    ///
    /// An unknown key never stops a file being read: the photo or album is published with what was
    /// understood, and `build --strict` fails on the warning.
    package func unknownKeys(_ known: [String]) -> [MetadataFileError] {
        fields.keys.filter { !known.contains($0) }.sorted { (lines[$0] ?? 0, $0) < (lines[$1] ?? 0, $1) }.map {
            MetadataFileError.unknownKey(
                $0, file: file, line: lines[$0], nearest: Spelling.closest(to: $0, among: known), known: known)
        }
    }
}
