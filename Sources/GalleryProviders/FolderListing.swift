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
        /// `.md` and `.xmp` files, by lower-cased name.
        package var sidecars: [String: String] = [:]
        /// The folder's `index.md` (or Hugo's `_index.md`), if any.
        package var index: String?
        /// Camera raw files, until `pairRaws` publishes or ignores each.
        package var raws: [String] = []
        /// Video files, until `pairClips` makes each a photo's motion or an item of its own.
        package var clips: [String] = []
        /// A Live Photo's clip by its still's path: `IMG_0001.MOV` for `IMG_0001.HEIC`.
        package var motions: [String: String] = [:]
    }

    package var directories: [Directory] = []
    package var ignored: [IgnoredFile] = []
    package var rejected: [RejectedFile] = []
    private var rawPolicy = SiteConfig.Defaults.raw
    private var livePhotos = true

    /// Extensions of the formats galleryssg decodes (see `ImageFormat`).
    package static let photoExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "mpo", "png", "webp", "heic", "heif", "hif",
        "avif", "tif", "tiff", "gif"
    ]
    /// Files that describe a photo or an album rather than being one.
    package static let sidecarExtensions: Set<String> = ["md", "xmp"]
    /// Clutter that operating systems and photo tools leave in folders.
    package static let systemFiles: Set<String> = [
        ".ds_store", "thumbs.db", "ehthumbs.db", "desktop.ini", ".picasa.ini", "picasa.ini",
        ".nomedia", "zbthumbnail.info", ".bridgesort", ".bridgelabelsandratings",
        ".localized", "icon\r"
    ]
    /// Folders that hold thumbnails or metadata of NAS and photo tools, never photos of their own.
    package static let systemFolders: Set<String> = ["@eadir", "#recycle", "$recycle.bin", ".thumbnails", "__macosx"]
    /// Camera raw formats, read through LibRaw (`images.raw`). LibRaw reads most others too (CRW, SRW,
    /// X3F, 3FR, IIQ…); a file of one of these that LibRaw does not know is reported as it fails.
    package static let rawExtensions: Set<String> = [
        "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "dng", "raf", "orf",
        "rw2", "pef", "srw", "x3f", "3fr", "iiq", "erf", "mrw", "rwl", "raw"
    ]
    /// Video formats, published as clips through ffmpeg. A file of one of these, or of an extension
    /// galleryssg does not know, is told apart by its first bytes (`MediaSignature`): an Ogg file
    /// named `.webm` is a clip, a song named `.ogg` is audio.
    package static let videoExtensions: Set<String> = [
        "mov", "mp4", "m4v", "avi", "mkv", "mts", "m2ts", "3gp", "3g2", "webm", "wmv", "asf", "mpg", "mpeg", "mpe",
        "m1v", "m2v", "ogv", "ogg", "ogm", "ts", "m2t", "tod", "mod", "vob", "flv", "f4v", "divx", "rm", "rmvb", "mxf",
        "nut", "dv"
    ]
    /// Sound formats: never published, reported as audio (unless their bytes are a clip's).
    package static let audioExtensions: Set<String> = [
        "mp3", "m4a", "m4b", "aac", "flac", "wav", "oga", "opus", "wma", "aif", "aiff", "amr", "ape", "wv", "mka"
    ]

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
        for name in names {
            entries += 1
            guard entries <= Self.maxEntries else {
                throw ProviderError.unreadable(
                    root, "more than \(Self.maxEntries) files and folders; is source.path the photo library?")
            }
            let path = relative.isEmpty ? name : "\(relative)/\(name)"
            let full = "\(directory)/\(name)"
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
        if !current.photos.isEmpty || current.index != nil || !current.sidecars.isEmpty { directories.append(current) }
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
    package static let notesFiles: Set<String> = ["readme.txt"]  // README.md could be README.jpg's sidecar

    /// Files a folder's sidecars are matched against later; here a file is only sorted by its name.
    private mutating func classify(
        name: String, lower: String, path: String, file: String, into current: inout Directory
    ) {
        let ext = (lower as NSString).pathExtension
        if Self.systemFiles.contains(lower) || lower.hasPrefix("._") {
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

    /// Decides each raw file of a folder: ignored on purpose when a photo of the same name sits beside it
    /// (`IMG_0042.CR2` and `IMG_0042.jpg`: the JPEG is the photographer's edit, or the camera's own
    /// rendering) or when `images.raw` is "skip"; else published like the folder's other photos.
    private mutating func pairRaws(in directory: inout Directory) {
        guard !directory.raws.isEmpty else { return }
        var edits: [String: String] = [:]
        for photo in directory.photos {
            edits[Self.stem(photo)] = edits[Self.stem(photo)] ?? (photo as NSString).lastPathComponent
        }
        for raw in directory.raws {
            if let edit = edits[Self.stem(raw)] {
                ignored.append(IgnoredFile(path: raw, reason: .rawBesideItsPhoto(edit)))
            } else if rawPolicy == .skip {
                ignored.append(IgnoredFile(path: raw, reason: .rawSkipped))
            } else {
                directory.photos.append(raw)
            }
        }
        directory.photos.sort()
        directory.raws = []
    }

    /// Decides each clip of a folder: the motion of a Live Photo when a still of the same name sits
    /// beside it (`IMG_0001.HEIC` and `IMG_0001.MOV`, as iPhones export them), published with it or,
    /// with `video.livePhotos` false, ignored on purpose; else an item of its own.
    private mutating func pairClips(in directory: inout Directory) {
        guard !directory.clips.isEmpty else { return }
        var stills: [String: String] = [:]
        for photo in directory.photos
        where Self.photoExtensions.contains((photo as NSString).pathExtension.lowercased()) {
            stills[Self.stem(photo)] = stills[Self.stem(photo)] ?? photo
        }
        for clip in directory.clips {
            guard let still = stills[Self.stem(clip)], directory.motions[still] == nil else {
                directory.photos.append(clip)
                continue
            }
            let name = (still as NSString).lastPathComponent
            if livePhotos {
                directory.motions[still] = clip
                ignored.append(IgnoredFile(path: clip, reason: .livePhotoClipPaired(with: name, byIdentifier: false)))
            } else {
                ignored.append(IgnoredFile(path: clip, reason: .livePhotoClipLeftOut(of: name)))
            }
        }
        directory.photos.sort()
        directory.clips = []
    }

    /// A file's name without its extension, lower-cased: what a raw and its photo, or a Live Photo's
    /// clip and its still, have in common (`IMG_0042.CR2`, `img_0042.jpg`).
    private static func stem(_ path: String) -> String {
        (((path as NSString).lastPathComponent as NSString).deletingPathExtension).lowercased()
    }

    /// The canonical absolute path, symlinks resolved; nil when it does not exist.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
