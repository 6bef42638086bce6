import Foundation

/// Everything the pages need about one published photo: metadata plus the planned derivatives.
public struct GalleryItem: Sendable {
    public var photo: Photo
    public var displaySize: PixelSize
    public var plan: DerivativePlan
    public var averageColor: String
    /// A tiny blurred JPEG as a `data:` URI, painted behind the image while it loads.
    public var placeholder: String
    /// Where the "full size" link points.
    public var original: OriginalLink

    public init(photo: Photo, displaySize: PixelSize, plan: DerivativePlan, averageColor: String, placeholder: String,
                original: OriginalLink) {
        self.photo = photo
        self.displaySize = displaySize
        self.plan = plan
        self.averageColor = averageColor
        self.placeholder = placeholder
        self.original = original
    }

    /// Inline CSS that paints the placeholder (over the average colour) under the image.
    var placeholderStyle: String {
        "background-color:\(averageColor);background-image:url(\(placeholder));background-size:cover"
    }

    /// The photo's page, relative to the site root.
    public var pagePath: String { "photos/\(photo.id)/index.html" }

    /// Alt text: the title, else "Photo by …", else a generic description.
    public var altText: String {
        if let title = photo.title { return title }
        if let author = photo.author { return "Photo by \(author)" }
        return "Untitled photo"
    }
}

/// The target of a photo page's "full size" link.
public enum OriginalLink: Sendable, Equatable {
    /// The original was published into the site at this root-relative path.
    case published(String)
    /// The original stays at its remote URL.
    case remote(URL)
    /// Only derivatives are published; the largest one is linked.
    case none
}
