/// One resized copy of an original: its pixel size and its path in the output.
package struct Derivative: Sendable, Equatable, Hashable {
    package var size: PixelSize
    /// The photo's folder, such as `photos/kite`: one string that all of a photo's derivatives
    /// share, where each path of its own would be an allocation per derivative of every photo.
    package var folder: String

    package init(size: PixelSize, folder: String) {
        self.size = size
        self.folder = folder
    }

    /// Path relative to the site root, such as `photos/kite/800x500.jpg`.
    package var path: String { "\(folder)/\(size.width)x\(size.height).jpg" }

    /// The WebP twin's path, such as `photos/kite/800x500.webp`, written when `images.webp` is on.
    package var webpPath: String { String(path.dropLast(".jpg".count)) + ".webp" }

    /// The AVIF twin's path, such as `photos/kite/800x500.avif`, written when `images.avif` is on.
    package var avifPath: String { String(path.dropLast(".jpg".count)) + ".avif" }
}

/// Every derivative a photo needs, known from its displayed size before any pixel is computed.
///
/// Sizes never exceed the original (no upscaling) and equal sizes are made once. GalleryImaging
/// works the plan out from the image settings (`DerivativePlan+Settings.swift`) and makes its
/// files; the pages only read it, so the value lives here, below both.
package struct DerivativePlan: Sendable, Equatable {
    /// The grid image: long edge at most `images.thumbnail`.
    package var thumbnail: Derivative
    /// The photo-page image: long edge at most `images.preview`.
    package var preview: Derivative
    /// Every distinct derivative: the thumbnail, the preview and the `images.widths` sizes, largest
    /// first, then `gridSteps`. `srcset` entries come from here.
    ///
    /// The grid's steps come last because `ImageProcessor` makes each size from one made before it
    /// (`DerivativeRecipe`) and a size's cache key follows that chain: appended, they change
    /// neither how the other sizes are made nor their keys.
    package var all: [Derivative]
    /// Sizes made for the grid alone, from the thumbnail up to `gridTallest`, so that each step is
    /// at most `gridStep` wider than the one before (largest first; see `gridWidths`, in
    /// GalleryImaging); none with `images.gridSteps` off.
    package var gridSteps: [Derivative]
    /// Whether each derivative also has a WebP twin at `webpPath`.
    package var webp: Bool
    /// Whether each derivative also has an AVIF twin at `avifPath`.
    package var avif: Bool

    /// A plan as it was worked out (GalleryImaging's `init(display:settings:folder:)`), or as it
    /// was worked out before (`ItemCoding` reads it back).
    package init(
        thumbnail: Derivative, preview: Derivative, all: [Derivative], gridSteps: [Derivative], webp: Bool,
        avif: Bool = false
    ) {
        self.thumbnail = thumbnail
        self.preview = preview
        self.all = all
        self.gridSteps = gridSteps
        self.webp = webp
        self.avif = avif
    }

    /// Derivatives for `srcset` on the photo page, narrowest first, ending with the preview.
    package var previewSources: [Derivative] {
        all.filter { $0.size.width <= preview.size.width && !gridSteps.contains($0) }.sorted {
            $0.size.width < $1.size.width
        }
    }

    /// Derivatives for `srcset` in the grid, narrowest first: the thumbnail and every size wider
    /// than it, the grid's steps included, so that a tile finds a file close to what it needs at
    /// any pixel density (on a phone at DPR 3, two photos a row need about 1.4 times the default
    /// thumbnail's width, a panorama three times).
    package var thumbnailSources: [Derivative] {
        [thumbnail] + all.filter { $0.size.width > thumbnail.size.width }.sorted { $0.size.width < $1.size.width }
    }

    /// The smallest size every derivative fits inside.
    package var largest: PixelSize {
        PixelSize(width: all.map(\.size.width).max() ?? 1, height: all.map(\.size.height).max() ?? 1)
    }
}
