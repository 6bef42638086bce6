import Foundation
import GalleryMetadata
import GalleryModel

/// One folder's Google Takeout JSON files, read and matched: each photo's sidecar (`TakeoutNames`),
/// the album's `metadata.json`, and what became of every `.json` file, so that none goes unreported.
///
/// A `.json` file is Takeout's when its content is (`TakeoutSidecar`), whatever its name: a photo's
/// sidecar whose photo is missing is a sidecar without a photo, and an album file is found by its
/// shape, so that localised names (`Metadaten.json`, `métadonnées.json`) are read too. A `.json` file
/// of any other shape, or one that cannot be read, is reported as a file galleryssg does not read.
struct TakeoutFolder {
    /// The Takeout sidecar of each photo that has one, by the photo's path.
    var photos: [String: TakeoutSidecar] = [:]
    /// The folder's album file: `metadata.json` first, else the first of that shape in name order.
    var album: TakeoutSidecar?
    var ignored: [IgnoredFile] = []
    var rejected: [RejectedFile] = []

    /// Reads the `.json` files among `directory`'s sidecars; `root` is the source folder.
    init(_ directory: FolderListing.Directory, root: URL) {
        let jsons = directory.sidecars.values.filter { $0.lowercased().hasSuffix(".json") }.sorted()
        guard !jsons.isEmpty else { return }
        let name = { (path: String) in (path as NSString).lastPathComponent }
        let pathOfPhoto = Dictionary(directory.photos.map { (name($0), $0) }, uniquingKeysWith: { first, _ in first })
        let pathOfJSON = Dictionary(jsons.map { (name($0), $0) }, uniquingKeysWith: { first, _ in first })
        let matches = TakeoutNames.match(photos: Array(pathOfPhoto.keys).sorted(), sidecars: jsons.map(name))
        var read: [String: TakeoutSidecar] = [:]
        var albumFiles: [String] = []
        for path in jsons.sorted(by: { Self.albumFirst(name($0), name($1)) }) {
            do {
                guard let sidecar = try TakeoutSidecar.read(root.appendingPathComponent(path)) else {
                    rejected.append(RejectedFile(path: path, reason: .notTakeoutJSON(.otherShape)))
                    continue
                }
                read[name(path)] = sidecar
                if sidecar.kind == .album { albumFiles.append(path) }
            } catch {
                rejected.append(RejectedFile(path: path, reason: .notTakeoutJSON(.unread(error.takeoutWords))))
            }
        }
        var used: Set<String> = []
        for (photo, json) in matches {
            guard let sidecar = read[json], sidecar.kind == .photo, let path = pathOfPhoto[photo] else { continue }
            photos[path] = sidecar
            used.insert(json)
        }
        if let first = albumFiles.first {
            album = read[name(first)]
            used.insert(name(first))
        }
        for (json, _) in read.sorted(by: { $0.key < $1.key }) {
            guard let path = pathOfJSON[json] else { continue }
            ignored.append(IgnoredFile(path: path, reason: used.contains(json) ? .sidecarRead : .sidecarWithoutPhoto))
        }
    }

    /// `metadata.json` before other names, so that it is the album's file when there are several.
    private static func albumFirst(_ lhs: String, _ rhs: String) -> Bool {
        let (left, right) = (lhs.lowercased() == "metadata.json", rhs.lowercased() == "metadata.json")
        return left != right ? left : lhs < rhs
    }
}

extension Error {
    /// A metadata file's problem in its own words, without the path it already names.
    fileprivate var takeoutWords: String { (self as? MetadataFileError)?.reason ?? "\(self)" }
}
