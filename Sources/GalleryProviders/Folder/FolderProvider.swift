import Foundation
import GalleryConfig
import GalleryMetadata
import GalleryModel

/// Photos from a local folder, searched recursively: a photographer's library as it is on disk.
///
/// Each folder is an album, named by its path (`2024/Iceland/Day 1`); its `index.md` describes
/// it. A photo's sidecars (`NAME.md`, `NAME.xmp`, or `NAME.jpg.md`…) describe the photo, and its
/// id is a slug of its relative path, so it stays stable between builds. Every other file is
/// accounted for in the manifest: ignored on purpose (hidden and system files) or rejected with a
/// reason (see `FolderListing`). Files are taken in path order for determinism.
package struct FolderProvider: PhotoProvider {
    package let folder: URL
    /// What becomes of camera raw files (`images.raw`); a raw beside its edit is never published.
    package let raw: RawPolicy
    /// Whether a Live Photo's clip is published with its still (`video.livePhotos`).
    package let livePhotos: Bool
    /// Pairs Live Photos whose names differ, by their content identifiers; nil pairs by name only.
    let pairing: LivePhotoPairing?
    /// Whether the people a Google Takeout sidecar names become the photo's tags (`source.peopleAsTags`).
    package var peopleAsTags = false

    package init(folder: URL, raw: RawPolicy = SiteConfig.Defaults.raw, livePhotos: Bool = true) {
        self.init(folder: folder, raw: raw, livePhotos: livePhotos, pairing: nil)
    }

    package init(folder: URL, raw: RawPolicy, livePhotos: Bool, pairing: LivePhotoPairing?) {
        self.folder = folder
        self.raw = raw
        self.livePhotos = livePhotos
        self.pairing = pairing
    }

    package var summary: String { "folder \(folder.path)" }

    package func fetchManifest() async throws -> Manifest {
        var listing = try FolderListing.walk(folder, raw: raw, livePhotos: livePhotos)
        await pairing?.pair(&listing, root: folder)
        var manifest = Manifest(photos: [], ignored: listing.ignored)
        manifest.issues = listing.rejected.map {
            ManifestIssue(
                item: $0.path, location: folder.appendingPathComponent($0.path).path, reason: $0.reason.description,
                isFile: true)
        }
        // Ids are given in path order over the whole library, as they always were, so they stay stable.
        var used: Set<String> = []
        var idOfPath: [String: String] = [:]
        for relative in listing.directories.flatMap(\.photos).sorted() {
            idOfPath[relative] = Self.uniqueID(for: relative, used: &used)
        }
        var arrangement = Arrangement(directories: listing.directories)
        for directory in listing.directories {
            // Parents come before their sub-folders, so a folder hidden by its parent is known here.
            if arrangement.hiddenAncestor(of: directory.path) != nil { continue }
            let ids = directory.photos.map { idOfPath[$0] ?? $0 }
            let album = readIndex(of: directory, ids: ids, into: &manifest)
            arrangement.read(album, of: directory, index: directory.index, into: &manifest)
            if directory.noZip, !directory.path.isEmpty {
                manifest.albums[directory.path, default: AlbumInfo()].zip = false
            }
            let takeout = TakeoutFolder(directory, root: folder)
            if let album = takeout.album, !directory.path.isEmpty {
                var info = manifest.albums[directory.path] ?? AlbumInfo()  // index.md wins field by field
                album.apply(to: &info)
                manifest.albums[directory.path] = info
            }
            manifest.ignored += takeout.ignored
            manifest.issues += takeout.rejected.map {
                ManifestIssue(
                    item: $0.path, location: folder.appendingPathComponent($0.path).path, reason: $0.reason.description,
                    isFile: true)
            }
            var usedSidecars: Set<String> = []
            var weights: [Int: Int] = [:]  // manifest.photos index → its sidecar's `order`
            for (relative, id) in zip(directory.photos, ids) {
                let name = (relative as NSString).lastPathComponent
                let location = folder.appendingPathComponent(relative)
                let (markdown, xmp) = Self.sidecars(of: name, in: directory)
                usedSidecars.formUnion([markdown, xmp].compactMap { $0 })
                if album.draft || album.hidden.place(of: name, isFolder: false) != nil {
                    manifest.ignored.append(
                        IgnoredFile(path: relative, reason: .hiddenBy(directory.index ?? "index.md")))
                    continue
                }
                var photo = Photo(id: id, album: directory.path.isEmpty ? nil : directory.path, image: .file(location))
                photo.motion = arrangement.motion(of: relative, in: directory, hidden: album.hidden, into: &manifest)
                    .map { .file(folder.appendingPathComponent($0)) }
                photo.fallbackTitle = Self.title(fromFileName: (name as NSString).deletingPathExtension)
                photo.order = album.order.place(of: name, isFolder: false)
                let resource = album.resources.first { $0.matches(name) }
                do {
                    let sidecar = try PhotoSidecar.read(
                        markdown: markdown.map(folder.appendingPathComponent),
                        xmp: xmp.map(folder.appendingPathComponent))
                    if sidecar.hidden {
                        manifest.ignored.append(
                            IgnoredFile(path: relative, reason: .hiddenBy(markdown ?? xmp ?? "its sidecar")))
                        continue
                    }
                    sidecar.apply(to: &photo)
                    if photo.order == nil, let weight = sidecar.order { weights[manifest.photos.count] = weight }
                    manifest.warnings += sidecar.warnings.map {
                        ManifestIssue(item: id, location: location.path, reason: $0.description)
                    }
                } catch {
                    manifest.issues.append(
                        ManifestIssue(item: id, location: location.path, reason: "sidecar not read: \(error)"))
                    continue
                }
                // A Hugo bundle's `resources` entry fills what the photo's own sidecar left empty.
                photo.title = photo.title ?? resource?.title
                photo.description = photo.description ?? resource?.description
                takeout.photos[relative]?.apply(to: &photo, fileName: name, peopleAsTags: peopleAsTags)
                manifest.photos.append(photo)
            }
            for (index, weight) in weights {
                manifest.photos[index].order = Arrangement.place(weight: weight)
            }
            for (_, path) in directory.sidecars.sorted(by: { $0.value < $1.value })
            where !path.lowercased().hasSuffix(".json") {
                manifest.ignored.append(
                    IgnoredFile(path: path, reason: usedSidecars.contains(path) ? .sidecarRead : .sidecarWithoutPhoto))
            }
        }
        arrangement.finish(&manifest)
        manifest.ignored.sort { $0.path < $1.path }
        manifest.photos.sort { $0.image.description < $1.image.description }
        return manifest
    }

    /// The `.md` and `.xmp` files that describe the photo `name`: `NAME.jpg.md` before `NAME.md`, and
    /// darktable's `NAME.CR2.xmp` of a raw beside it when the photo has no `.xmp` of its own.
    package static func sidecars(of name: String, in directory: FolderListing.Directory) -> (
        markdown: String?, xmp: String?
    ) {
        let lower = name.lowercased()
        let stem = (lower as NSString).deletingPathExtension
        func find(_ ext: String) -> String? {
            directory.sidecars["\(lower).\(ext)"] ?? directory.sidecars["\(stem).\(ext)"]
        }
        // darktable names its sidecar after the raw (`IMG_0042.CR2.xmp`); with the raw left out beside
        // its photo (`IMG_0042.jpg`, the export), that sidecar describes the photo.
        let rawSidecar = FolderListing.rawExtensions.sorted().lazy.compactMap {
            directory.sidecars["\(stem).\($0).xmp"]
        }.first
        return (find("md"), find("xmp") ?? rawSidecar)
    }

    /// A slug of the relative path without its extension, made unique with `-2`, `-3`…
    private static func uniqueID(for relative: String, used: inout Set<String>) -> String {
        var id = PhotoID.slug((relative as NSString).deletingPathExtension)
        if used.contains(id) {
            var counter = 2
            while used.contains("\(id)-\(counter)") { counter += 1 }
            id = "\(id)-\(counter)"
        }
        used.insert(id)
        return id
    }

    /// `IMG_2041-beach` becomes `IMG 2041 beach`.
    package static func title(fromFileName name: String) -> String {
        name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
            .split(separator: " ").joined(separator: " ")
    }
}
