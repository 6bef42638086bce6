import Foundation
import GalleryProviders

extension FuzzHarness {
    /// The manifest framing (`ManifestBytes`, `ManifestDocument`) and the entry mapper.
    ///
    /// The document is read twice, whole and in 3-byte chunks: the framing must not depend on
    /// where a chunk ends, so both reads must agree.
    static let manifest = FuzzHarness(
        name: "manifest",
        summary: "ManifestDocument.read (framing, UTF-16/32, entries, albums), whole and in 3-byte chunks"
    ) { data in
        let mapper = ManifestEntryMapper(resolver: .base(URL(string: "https://photos.example/manifest/")!))
        func outcome(_ chunkSize: Int) -> String {
            do {
                let manifest = try ManifestDocument.read(.data(data, chunkSize: chunkSize), mapper: mapper)
                return
                    "photos \(manifest.photos.map(\.id)), issues \(manifest.issues.count), albums \(manifest.albums.keys.sorted())"
            } catch {
                return "error \(error)"
            }
        }
        let whole = outcome(ManifestBytes.chunkSize)
        let chunked = outcome(3)
        return whole == chunked ? nil : "read whole: \(whole.prefix(200)); in 3-byte chunks: \(chunked.prefix(200))"
    }
}
