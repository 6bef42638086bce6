import Foundation
import GalleryModel

/// Everything the pages need about one published photo: metadata plus the planned derivatives.
package struct GalleryItem: Sendable {
    package var photo: Photo
    package var displaySize: PixelSize
    package var plan: DerivativePlan
    package var averageColor: String
    /// The key of a tiny blurred JPEG painted behind the image while it loads; its `data:` URI is
    /// looked up only when a page shows it (`PlaceholderLookup`), so a build never holds them all.
    package var placeholderKey: Digest
    /// Where the "full size" link points.
    package var original: OriginalLink
    /// For a clip: what its container says; its web file is `videoPath`, its poster the derivatives.
    package var video: VideoInfo?
    /// The cache key of the file at `downloadPath` (its blob), which keys an album's zip; nil when
    /// unknown (items made by hand).
    package var downloadKey: Digest?
    /// Whether the published original is what visitors download: false for one published as-is
    /// (`images.publishOriginals: "as-is"`), which keeps its tags, GPS among them.
    package var originalDownloadable = true

    package init(
        photo: Photo, displaySize: PixelSize, plan: DerivativePlan, averageColor: String, placeholderKey: Digest,
        original: OriginalLink, video: VideoInfo? = nil, hasMotion: Bool = false
    ) {
        self.video = video
        self.hasMotion = hasMotion
        self.photo = photo
        self.displaySize = displaySize
        self.plan = plan
        self.averageColor = averageColor
        self.placeholderKey = placeholderKey
        self.original = original
    }

    /// Inline CSS that paints the placeholder (over the average colour) under the image.
    func placeholderStyle(_ placeholders: PlaceholderLookup) -> String {
        "background-color:\(averageColor);background-image:url(\(placeholders.dataURI(placeholderKey)));background-size:cover"
    }

    /// Whether the photo has a motion (a Live Photo's clip, a motion photo's, or an animation's): `motionPath`.
    package var hasMotion = false
    /// For an animated GIF or WebP with its motion: how that motion is published (it loops).
    package var animation: AnimationMotion?

    /// The motion file (`SiteLayout.motionFile`), relative to the site root; nil for other photos.
    package var motionPath: String? {
        hasMotion ? SiteLayout.motionFile(id: photo.id, fileExtension: animation?.fileExtension ?? "mp4") : nil
    }

    /// A clip's web file, relative to the site root; nil for a still.
    var videoPath: String? { video == nil ? nil : SiteLayout.videoFile(id: photo.id) }

    /// The file a visitor downloads, relative to the site root: the published original (a clip's web
    /// file, without metadata) when it is free of location tags, else the largest JPEG derivative.
    /// Never a file the site does not already publish.
    package var downloadPath: String {
        if case .published(let path) = original, originalDownloadable { return path }
        let largest = plan.all.max { $0.size.pixelCount < $1.size.pixelCount } ?? plan.preview
        return largest.path
    }

    /// The photo's page, relative to the site root.
    var pagePath: String { SiteLayout.photoPage(id: photo.id) }

    /// Alt text: the title, else "Photo by …", else a generic description.
    var altText: String {
        if let title = photo.title { return title }
        if let author = photo.author { return "Photo by \(author)" }
        return "Untitled photo"
    }
}

/// The target of a photo page's "full size" link.
package enum OriginalLink: Sendable, Equatable {
    /// The original was published into the site at this root-relative path.
    case published(String)
    /// The original stays at its remote URL.
    /// A download's address (`ImageLocation.description`): the photo's own text, not a `URL` per photo.
    case remote(String)
    /// Only derivatives are published; the largest one is linked.
    case none
}

/// Finds a placeholder's `data:` URI by its key when a page shows it. A build reads them from the
/// state database (`BuildState.placeholderURI`), so 100,000 of them never sit in memory at once.
package struct PlaceholderLookup: Sendable {
    private let find: @Sendable (Digest) -> String

    package init(_ find: @escaping @Sendable (Digest) -> String) {
        self.find = find
    }

    package func dataURI(_ key: Digest) -> String { find(key) }

    /// The same data URI for every key: items made by hand (tests, previews).
    package static func fixed(_ dataURI: String) -> PlaceholderLookup { PlaceholderLookup { _ in dataURI } }
}
