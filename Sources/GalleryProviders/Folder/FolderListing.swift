import Foundation
import GalleryConfig
import GalleryModel

/// Every file under a folder source, sorted into what a build does with it: photos, sidecars,
/// album `index.md` files, files left out on purpose, and files it cannot use.
///
/// Nothing is dropped without a line: a file is a photo, a sidecar or album index (read), ignored
/// with a reason (hidden files, system clutter), or rejected with a reason (unsupported format,
/// a symlink out of the folder). Symlinks are followed when their target stays inside the source
/// folder, so a `Portfolio/` of links to photos elsewhere in the library works; a folder reached
/// twice through links is listed once.
package struct FolderListing: Sendable {
    /// One directory's photos and the files that describe them, paths relative to the source folder.
    package struct Directory: Sendable, Equatable {
        /// `/`-separated path from the source folder; empty for the folder itself.
        package var path: String
        /// Photo and video files in name order.
        package var photos: [String] = []
        /// `.md`, `.xmp` and `.json` (Google Takeout's) files, by lower-cased name.
        package var sidecars: [String: String] = [:]
        /// The folder's `index.md` (or Hugo's `_index.md`), if any.
        package var index: String?
        /// Camera raw files, until `pairRaws` publishes or ignores each.
        var raws: [String] = []
        /// Video files, until `pairClips` makes each a photo's motion or an item of its own.
        package var clips: [String] = []
        /// A Live Photo's clip by its still's path: `IMG_0001.MOV` for `IMG_0001.HEIC`.
        package var motions: [String: String] = [:]
        /// sigal's `.nozip_gallery` is there: the album offers no zip.
        var noZip = false
    }

    package var directories: [Directory] = []
    package var ignored: [IgnoredFile] = []
    package var rejected: [RejectedFile] = []
    var rawPolicy = SiteConfig.Defaults.raw
    var livePhotos = true

    /// More entries than this in one source folder is a mistake (a home folder, a root), not a library.
    package static let maxEntries = 2_000_000
    /// Folders nested deeper than this are reported instead of walked.
    package static let maxDepth = 32

    /// Walks `root` recursively, in name order.
    /// - Throws: `ProviderError` when the folder itself is missing or unreadable.
    /// - Parameter raw: What becomes of camera raw files; one beside a photo of the same name is always ignored.
    /// - Parameter livePhotos: Whether a clip beside a still of the same name is published as its motion
    ///   (`video.livePhotos`); when false it is ignored on purpose.
    package static func walk(_ root: URL, raw: RawPolicy = SiteConfig.Defaults.raw, livePhotos: Bool = true) throws
        -> FolderListing
    {
        let rootPath = root.standardizedFileURL.path
        guard let realRoot = realPath(rootPath) else {
            throw ProviderError.unreadable(
                root.path, "folder not found; check source.path in the config", kind: .notFound)
        }
        var info = stat()
        guard stat(realRoot, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw ProviderError.unreadable(root.path, "not a folder; check source.path in the config", kind: .notFound)
        }
        var listing = FolderListing()
        listing.rawPolicy = raw
        listing.livePhotos = livePhotos
        var visited: Set<String> = [realRoot]
        var entries = 0
        try listing.walk(
            directory: realRoot, relative: "", root: realRoot, depth: 0, visited: &visited, entries: &entries)
        return listing
    }

    private mutating func walk(
        directory: String, relative: String, root: String, depth: Int, visited: inout Set<String>,
        entries: inout Int
    ) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        } catch {
            if relative.isEmpty {
                throw ProviderError.unreadable(directory, RejectedFile.Reason.folderUnlistable.description)
            }
            rejected.append(RejectedFile(path: relative, reason: .folderUnlistable))
            return
        }
        var current = Directory(path: relative)
        var folders: [(name: String, real: String)] = []
        // Android's `.nomedia`: empty, nothing here or below is media; else the names it lists are not.
        var unlisted: Set<String> = []
        if let marker = names.first(where: { $0.lowercased() == ".nomedia" }) {
            let path = relative.isEmpty ? marker : "\(relative)/\(marker)"
            ignored.append(IgnoredFile(path: path, reason: .markerObeyed))
            guard let listed = NoMediaFile.names(in: "\(directory)/\(marker)") else {
                ignored.append(
                    IgnoredFile(path: relative.isEmpty ? "./" : relative + "/", reason: .folderHiddenBy(path)))
                return
            }
            unlisted = listed
        }
        for name in names {
            entries += 1
            guard entries <= Self.maxEntries else {
                throw ProviderError.unreadable(
                    root, "more than \(Self.maxEntries) files and folders; is source.path the photo library?")
            }
            let path = relative.isEmpty ? name : "\(relative)/\(name)"
            let full = "\(directory)/\(name)"
            if name.lowercased() == ".nomedia" { continue }
            var link = stat()
            guard lstat(full, &link) == 0 else {
                rejected.append(RejectedFile(path: path, reason: .unreadable(errno: errno)))
                continue
            }
            var kind = link.st_mode & S_IFMT
            var real = full
            if kind == S_IFLNK {
                guard let target = Self.realPath(full) else {
                    rejected.append(RejectedFile(path: path, reason: .brokenSymlink))
                    continue
                }
                guard target == root || target.hasPrefix(root + "/") else {
                    rejected.append(RejectedFile(path: path, reason: .symlinkOutsideSource(target: target)))
                    continue
                }
                var resolved = stat()
                guard stat(target, &resolved) == 0 else {
                    rejected.append(RejectedFile(path: path, reason: .symlinkTargetUnreadable))
                    continue
                }
                kind = resolved.st_mode & S_IFMT
                real = target
            }
            let lower = name.lowercased()
            if unlisted.contains(name) {
                let marker = relative.isEmpty ? ".nomedia" : "\(relative)/.nomedia"
                ignored.append(
                    kind == S_IFDIR
                        ? IgnoredFile(path: path + "/", reason: .folderHiddenBy(marker))
                        : IgnoredFile(path: path, reason: .hiddenBy(marker)))
                continue
            }
            if kind == S_IFDIR {
                if name.hasPrefix(".") || Self.systemFolders.contains(lower) {
                    ignored.append(
                        IgnoredFile(path: path + "/", reason: name.hasPrefix(".") ? .hiddenFolder : .otherToolsFolder))
                } else {
                    folders.append((name, real))
                }
                continue
            }
            guard kind == S_IFREG else {
                rejected.append(RejectedFile(path: path, reason: .notRegularFile))
                continue
            }
            classify(name: name, lower: lower, path: path, file: real, into: &current)
        }
        pairRaws(in: &current)
        pairClips(in: &current)
        if !current.photos.isEmpty || current.index != nil || !current.sidecars.isEmpty || current.noZip {
            directories.append(current)
        }
        for (name, real) in folders {
            let path = relative.isEmpty ? name : "\(relative)/\(name)"
            guard depth + 1 < Self.maxDepth else {
                rejected.append(RejectedFile(path: path + "/", reason: .nestedTooDeep(maxDepth: Self.maxDepth)))
                continue
            }
            guard visited.insert(real).inserted else {
                ignored.append(IgnoredFile(path: path + "/", reason: .alreadyListed(as: real)))
                continue
            }
            try walk(
                directory: real, relative: path, root: root, depth: depth + 1, visited: &visited, entries: &entries)
        }
    }

    /// A folder's notes to people, such as the one `galleryssg init` leaves in `photos/`: read by
    /// nobody, ignored on purpose rather than reported as a photo that could not be read.
    static let notesFiles: Set<String> = ["readme.txt"]  // README.md could be README.jpg's sidecar

    /// Files a folder's sidecars are matched against later; here a file is only sorted by its name.
    private mutating func classify(
        name: String, lower: String, path: String, file: String, into current: inout Directory
    ) {
        let ext = (lower as NSString).pathExtension
        if lower == ".nozip_gallery" {
            current.noZip = true
            ignored.append(IgnoredFile(path: path, reason: .markerObeyed))
        } else if Self.systemFiles.contains(lower) || lower.hasPrefix("._") {
            ignored.append(IgnoredFile(path: path, reason: .systemFile))
        } else if name.hasPrefix(".") {
            ignored.append(IgnoredFile(path: path, reason: .hiddenFile))
        } else if Self.notesFiles.contains(lower) {
            ignored.append(IgnoredFile(path: path, reason: .notesFile))
        } else if Self.photoExtensions.contains(ext) {
            current.photos.append(path)
        } else if lower == "index.md" || (lower == "_index.md" && current.index == nil) {
            current.index = path  // Hugo's branch bundles name it `_index.md`
        } else if Self.sidecarExtensions.contains(ext) {
            current.sidecars[lower] = path
        } else if Self.rawExtensions.contains(ext) {
            current.raws.append(path)
        } else {
            switch Self.media(extension: ext, file: file) {
            case .clip: current.clips.append(path)
            case .audio: ignored.append(IgnoredFile(path: path, reason: .audioFile))
            case .text: rejected.append(RejectedFile(path: path, reason: .textFile(extension: ext)))
            case .other: rejected.append(RejectedFile(path: path, reason: .unsupportedFormat(extension: ext)))
            }
        }
    }

    /// What a file that is no photo, sidecar or raw by its name holds.
    private enum Media { case clip, audio, text, other }

    /// A file's kind by its first bytes (`MediaSignature`), its extension breaking the tie when they
    /// match no signature: a video extension goes to ffprobe (which explains what it finds), an
    /// audio one is audio. Only files that are no photo by name are opened, and only their start.
    private static func media(extension ext: String, file: String) -> Media {
        let head =
            FileHandle(forReadingAtPath: file).flatMap { handle in
                defer { try? handle.close() }
                return try? handle.read(upToCount: MediaSignature.prefixLength)
            } ?? Data()
        switch MediaSignature.kind(of: head) {
        case .video: return .clip
        case .audio: return .audio
        case nil: break
        }
        if audioExtensions.contains(ext) { return .audio }
        guard videoExtensions.contains(ext) else { return .other }
        // A TypeScript `.ts` or a note named `.mod` is text, which no video is.
        let printable = head.prefix(512).allSatisfy { ($0 >= 0x20 && $0 != 0x7f) || [0x09, 0x0a, 0x0d].contains($0) }
        return !head.isEmpty && printable && ImageFormat.recognise(head) == nil ? .text : .clip
    }

    /// The canonical absolute path, symlinks resolved; nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
