import Foundation

/// A file a folder source left out on purpose, and why.
///
/// In the report's JSON the reason is its words (`"reason": "system file"`), as it always was; a
/// report read back gets its reason again from those words.
package struct IgnoredFile: Sendable, Equatable, Codable {
    /// The path relative to the source folder.
    package var path: String
    package var reason: Reason

    package init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    /// Why a file was left out on purpose. Its words (`description`) and the words the build's
    /// summary counts it under (`tally`) are made here and nowhere else.
    package enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// A photo hidden by its album's `index.md`, its own sidecar or a `.nomedia`, named here.
        case hiddenBy(String)
        /// A folder, and all below it, hidden by its parent's `index.md` or a `.nomedia`, named here.
        case folderHiddenBy(String)
        /// A marker file obeyed: Android's `.nomedia`, sigal's `.nozip_gallery`.
        case markerObeyed
        case sidecarRead
        case albumIndexRead
        /// The source folder's own `index.md`: the site's title and description belong in the config.
        case sourceIndexIsNoAlbum
        case sidecarWithoutPhoto
        case systemFile
        case hiddenFile
        case hiddenFolder
        case notesFile
        case otherToolsFolder
        /// A folder reached again through a symbolic link; its real path.
        case alreadyListed(as: String)
        /// A camera raw file beside its photo (the photographer's edit), named here.
        case rawBesideItsPhoto(String)
        case rawSkipped
        /// A Live Photo's clip, published with its still (named here), paired by name or by the
        /// content identifier both files carry.
        case livePhotoClipPaired(with: String, byIdentifier: Bool)
        /// A Live Photo's clip left out because `video.livePhotos` is false.
        case livePhotoClipLeftOut(of: String)
        /// Sound alone (an MP3, a Vorbis `.ogg`, an M4A), told by its first bytes: a gallery shows
        /// photos and clips, and a sound file has nothing to show.
        case audioFile

        package var description: String {
            switch self {
            case .hiddenBy(let file): "hidden by \(file)"
            case .folderHiddenBy(let file): "folder hidden by \(file), with all it holds"
            case .markerObeyed: "marker file, obeyed"
            case .sidecarRead: "sidecar, read"
            case .albumIndexRead: "album index, read"
            case .sourceIndexIsNoAlbum:
                "the source folder's index.md is not an album; set the site's title and description in the config"
            case .sidecarWithoutPhoto: "sidecar without a photo of the same name beside it"
            case .systemFile: "system file"
            case .hiddenFile: "hidden file"
            case .hiddenFolder: "hidden folder"
            case .notesFile: "notes file (a README)"
            case .otherToolsFolder: "folder of another tool's thumbnails or metadata"
            case .alreadyListed(let real): "already listed as \(real) (a symlinked folder)"
            case .rawBesideItsPhoto(let photo): "raw beside its photo \(photo), which is published instead"
            case .rawSkipped: "raw file, not published (images.raw is \"skip\")"
            case .livePhotoClipPaired(let still, let byIdentifier):
                "Live Photo clip, published with \(still)" + (byIdentifier ? " (paired by its content identifier)" : "")
            case .livePhotoClipLeftOut(let still):
                "Live Photo clip of \(still), not published (video.livePhotos is false)"
            case .audioFile: "audio file (sound only, no video), not published"
            }
        }

        /// How the build's summary counts the reason (`3 sidecars read, 1 system file`); the
        /// order of the cases breaks ties between equal counts.
        package enum Tally: Int, Sendable, Comparable, CaseIterable {
            case hiddenPhoto, hiddenAlbum, markerObeyed, sidecarRead, albumIndexRead, sidecarWithoutPhoto, systemFile,
                hiddenFile, hiddenFolder,
                notesFile, otherToolsFolder, folderLinkedTwice, rawBesideItsPhoto, rawSkipped, livePhotoClipPaired,
                livePhotoClipLeftOut, audioFile, other

            /// `count` files of this kind: `1 system file`, `2 system files`.
            package func counted(_ count: Int) -> String {
                let (one, many): (String, String) =
                    switch self {
                    case .hiddenPhoto: ("hidden photo", "hidden photos")
                    case .hiddenAlbum: ("hidden album folder", "hidden album folders")
                    case .markerObeyed: ("marker file obeyed", "marker files obeyed")
                    case .sidecarRead: ("sidecar read", "sidecars read")
                    case .albumIndexRead: ("album index read", "album indexes read")
                    case .sidecarWithoutPhoto: ("sidecar without a photo", "sidecars without a photo")
                    case .systemFile: ("system file", "system files")
                    case .hiddenFile: ("hidden file", "hidden files")
                    case .hiddenFolder: ("hidden folder", "hidden folders")
                    case .notesFile: ("notes file", "notes files")
                    case .otherToolsFolder: ("folder of another tool", "folders of other tools")
                    case .folderLinkedTwice: ("folder linked twice", "folders linked twice")
                    case .rawBesideItsPhoto: ("raw beside its photo", "raws beside their photos")
                    case .rawSkipped: ("raw file skipped", "raw files skipped")
                    case .livePhotoClipPaired: ("Live Photo clip paired", "Live Photo clips paired")
                    case .livePhotoClipLeftOut: ("Live Photo clip left out", "Live Photo clips left out")
                    case .audioFile: ("audio file", "audio files")
                    case .other: ("other", "others")
                    }
                return "\(count) \(count == 1 ? one : many)"
            }

            package static func < (lhs: Tally, rhs: Tally) -> Bool { lhs.rawValue < rhs.rawValue }
        }

        package var tally: Tally {
            switch self {
            case .hiddenBy: .hiddenPhoto
            case .folderHiddenBy: .hiddenAlbum
            case .markerObeyed: .markerObeyed
            case .sidecarRead: .sidecarRead
            case .albumIndexRead: .albumIndexRead
            case .sourceIndexIsNoAlbum: .other
            case .sidecarWithoutPhoto: .sidecarWithoutPhoto
            case .systemFile: .systemFile
            case .hiddenFile: .hiddenFile
            case .hiddenFolder: .hiddenFolder
            case .notesFile: .notesFile
            case .otherToolsFolder: .otherToolsFolder
            case .alreadyListed: .folderLinkedTwice
            case .rawBesideItsPhoto: .rawBesideItsPhoto
            case .rawSkipped: .rawSkipped
            case .livePhotoClipPaired: .livePhotoClipPaired
            case .livePhotoClipLeftOut: .livePhotoClipLeftOut
            case .audioFile: .audioFile
            }
        }

        /// Every reason, made from the one text it may carry; `init?(_:)` reads words back by them.
        private static let shapes: [@Sendable (String) -> Reason] = [
            { .hiddenBy($0) }, { .folderHiddenBy($0) }, { _ in .markerObeyed }, { _ in .sidecarRead },
            { _ in .albumIndexRead }, { _ in .sourceIndexIsNoAlbum },
            { _ in .sidecarWithoutPhoto }, { _ in .systemFile }, { _ in .hiddenFile }, { _ in .hiddenFolder },
            { _ in .notesFile }, { _ in .otherToolsFolder }, { .alreadyListed(as: $0) }, { .rawBesideItsPhoto($0) },
            { _ in .rawSkipped }, { .livePhotoClipPaired(with: $0, byIdentifier: false) },
            { .livePhotoClipPaired(with: $0, byIdentifier: true) }, { .livePhotoClipLeftOut(of: $0) },
            { _ in .audioFile }
        ]

        /// The reason whose words are `text`, or nil.
        package init?(_ text: String) {
            let marker = "\u{0}"
            // The longest words first, so `published with X (paired by …)` is not read as `published with X`.
            let candidates = Self.shapes.map {
                make -> (prefix: String, suffix: String?, make: @Sendable (String) -> Reason) in
                let words = make(marker).description
                guard let range = words.range(of: marker) else { return (words, nil, make) }
                return (String(words[..<range.lowerBound]), String(words[range.upperBound...]), make)
            }.sorted { $0.prefix.count + ($0.suffix?.count ?? 0) > $1.prefix.count + ($1.suffix?.count ?? 0) }
            for (prefix, suffix, make) in candidates {
                guard let suffix else {
                    if text == prefix {
                        self = make("")
                        return
                    }
                    continue
                }
                if text.count > prefix.count + suffix.count, text.hasPrefix(prefix), text.hasSuffix(suffix) {
                    self = make(String(text.dropFirst(prefix.count).dropLast(suffix.count)))
                    return
                }
            }
            return nil
        }
    }

    private enum CodingKeys: String, CodingKey { case path, reason }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        path = try container.decode(String.self, forKey: .path)
        let text = try container.decode(String.self, forKey: .reason)
        guard let reason = Reason(text) else {
            throw DecodingError.dataCorruptedError(
                forKey: .reason, in: container, debugDescription: "no reason reads \"\(text)\"")
        }
        self.reason = reason
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encode(reason.description, forKey: .reason)
    }
}
