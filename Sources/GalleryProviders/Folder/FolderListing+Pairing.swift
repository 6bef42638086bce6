import Foundation

/// How `FolderListing` decides a folder's raws and clips once all its files are sorted by name.
extension FolderListing {
    /// Decides each raw file of a folder: ignored on purpose when a photo of the same name sits beside it
    /// (`IMG_0042.CR2` and `IMG_0042.jpg`: the JPEG is the photographer's edit, or the camera's own
    /// rendering) or when `images.raw` is "skip"; else published like the folder's other photos.
    mutating func pairRaws(in directory: inout Directory) {
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
    mutating func pairClips(in directory: inout Directory) {
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
    static func stem(_ path: String) -> String {
        (((path as NSString).lastPathComponent as NSString).deletingPathExtension).lowercased()
    }
}
