import Foundation
import GalleryModel

/// How `LivePhotoPairing` reads the content identifier both halves of a Live Photo carry. GalleryPipeline
/// hands in GalleryImaging's `LivePhotoIdentifier`: a HEIC's EXIF is found by its codec and a clip's
/// by ffprobe, tools the images stage owns, so listing a folder opens no codec of its own.
package struct LivePhotoReader: Sendable {
    /// A still's identifier from its bytes (a JPEG's or a HEIC's), or nil.
    package var still: @Sendable (Data) -> String?
    /// A clip's identifier, or nil when it has none; nil when clips cannot be read (no ffprobe).
    package var clip: (@Sendable (URL) async -> String?)?

    package init(still: @escaping @Sendable (Data) -> String?, clip: (@Sendable (URL) async -> String?)?) {
        self.still = still
        self.clip = clip
    }
}

/// Pairs the Live Photos whose names differ (`Lisbon tram.heic` and `IMG_0042.MOV`, after an
/// export or a rename) by the content identifier both files carry (`LivePhotoReader`); the
/// listing has already paired those that share a name.
///
/// Only a folder with both a QuickTime clip and a still (HEIC or JPEG) left unpaired is looked at,
/// and its stills only when one of its clips has an identifier (a clip that is no Live Photo's has
/// none). What was read is kept in a small cache file by path, size and modification time, so a
/// rebuild opens no file again.
package struct LivePhotoPairing {
    /// The cache file (in the state folder); nil reads every time.
    let cacheFile: URL?
    package let reader: LivePhotoReader
    /// Whether a paired clip is published with its still (`video.livePhotos`).
    package let publish: Bool

    /// Clips larger than this are no Live Photo's (they run 1.5 to 3 s: a few MB) and are not probed.
    static let maxClipBytes = 50 << 20
    static let clipExtensions: Set<String> = ["mov", "qt"]
    static let stillExtensions: Set<String> = ["heic", "heif", "hif", "jpg", "jpeg"]

    private struct Entry: Codable {
        var size: Int
        /// Nanoseconds since 1970.
        var modified: Int
        var identifier: String?
    }

    /// Moves each clip whose identifier matches a still's, in the same folder, from the folder's
    /// photos to that still's motion (or to the ignored files when `publish` is false).
    package func pair(_ listing: inout FolderListing, root: URL) async {
        let cache = loadCache()
        var used: [String: Entry] = [:]
        var changed = false
        /// `read` gives the file's identifier, or nothing when it could not look (no ffprobe): that is not kept.
        func identifier(_ relative: String, read: () async -> String??) async -> String? {
            let path = root.appendingPathComponent(relative).path
            guard let stamp = Self.stamp(path) else { return nil }
            if let entry = cache[relative], entry.size == stamp.size, entry.modified == stamp.modified {
                used[relative] = entry
                return entry.identifier
            }
            guard stamp.size <= Self.maxClipBytes else { return nil }
            guard let found = await read() else { return nil }
            used[relative] = Entry(size: stamp.size, modified: stamp.modified, identifier: found)
            changed = true
            return found
        }
        for index in listing.directories.indices {
            let directory = listing.directories[index]
            let paired = Set(directory.motions.keys)
            let clips = directory.photos.filter { Self.clipExtensions.contains(Self.ext($0)) }
            let stills = directory.photos.filter { Self.stillExtensions.contains(Self.ext($0)) && !paired.contains($0) }
            guard !clips.isEmpty, !stills.isEmpty else { continue }
            var clipByID: [String: String] = [:]
            for clip in clips {
                let id = await identifier(clip) { () async -> String?? in
                    guard let readClip = reader.clip else { return .none }
                    return .some(await readClip(root.appendingPathComponent(clip)))
                }
                if let id, clipByID[id] == nil { clipByID[id] = clip }
            }
            guard !clipByID.isEmpty else { continue }
            for still in stills {
                let id = await identifier(still) { () async -> String?? in
                    .some(
                        (try? Data(contentsOf: root.appendingPathComponent(still), options: .mappedIfSafe)).flatMap(
                            reader.still))
                }
                guard let id, let clip = clipByID.removeValue(forKey: id) else { continue }
                listing.directories[index].photos.removeAll { $0 == clip }
                let name = (still as NSString).lastPathComponent
                if publish {
                    listing.directories[index].motions[still] = clip
                    listing.ignored.append(
                        IgnoredFile(path: clip, reason: .livePhotoClipPaired(with: name, byIdentifier: true)))
                } else {
                    listing.ignored.append(IgnoredFile(path: clip, reason: .livePhotoClipLeftOut(of: name)))
                }
            }
        }
        // Only the files still there are kept, so the cache never grows past the library.
        if changed || used.count != cache.count { saveCache(used) }
    }

    /// A file's size and modification time (nanoseconds), by `stat`.
    private static func stamp(_ path: String) -> (size: Int, modified: Int)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return (Int(info.st_size), Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec))
    }

    private static func ext(_ path: String) -> String { (path as NSString).pathExtension.lowercased() }

    private func loadCache() -> [String: Entry] {
        guard let cacheFile, let data = try? Data(contentsOf: cacheFile),
            let entries = try? JSONDecoder().decode([String: Entry].self, from: data)
        else { return [:] }
        return entries
    }

    private func saveCache(_ entries: [String: Entry]) {
        guard let cacheFile else { return }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        guard let data = try? encoder.encode(entries) else { return }
        try? FileManager.default.createDirectory(
            at: cacheFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? data.write(to: cacheFile, options: .atomic)
    }
}
