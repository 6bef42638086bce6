/// One resized copy of an original: its pixel size and its path in the output.
public struct Derivative: Sendable, Equatable, Hashable {
    public var size: PixelSize
    /// The photo's folder, such as `photos/kite`: one string that all of a photo's derivatives
    /// share, where each path of its own would be an allocation per derivative of every photo.
    public var folder: String

    public init(size: PixelSize, folder: String) {
        self.size = size
        self.folder = folder
    }

    /// Path relative to the site root, such as `photos/kite/800x500.jpg`.
    public var path: String { "\(folder)/\(size.width)x\(size.height).jpg" }

    /// The WebP twin's path, such as `photos/kite/800x500.webp`, written when `images.webp` is on.
    public var webpPath: String { String(path.dropLast(".jpg".count)) + ".webp" }
}

/// Every derivative a photo needs, known from its displayed size before any pixel is computed.
///
/// Sizes never exceed the original (no upscaling) and equal sizes are made once.
public struct DerivativePlan: Sendable, Equatable {
    /// The grid image: long edge at most `images.thumbnail`.
    public var thumbnail: Derivative
    /// The photo-page image: long edge at most `images.preview`.
    public var preview: Derivative
    /// Every distinct derivative, largest first; `srcset` entries come from here.
    public var all: [Derivative]
    /// Whether each derivative also has a WebP twin at `webpPath`.
    public var webp: Bool

    /// Derivatives for `srcset` on the photo page, narrowest first, ending with the preview.
    public var previewSources: [Derivative] {
        all.filter { $0.size.width <= preview.size.width }.sorted { $0.size.width < $1.size.width }
    }

    /// Derivatives for `srcset` in the grid: the thumbnail and the next size up for high-density screens.
    public var thumbnailSources: [Derivative] {
        let larger = all.filter { $0.size.width > thumbnail.size.width }.sorted { $0.size.width < $1.size.width }
        let double = larger.first { $0.size.width >= thumbnail.size.width * 2 } ?? larger.last
        return [thumbnail] + (double.map { [$0] } ?? [])
    }

    /// Plans the derivatives of a photo shown at `display` size.
    public init(display: PixelSize, settings: ImageSettings, folder: String) {
        func derivative(_ size: PixelSize) -> Derivative {
            Derivative(size: size, folder: folder)
        }
        thumbnail = derivative(display.fitting(longEdge: settings.thumbnail))
        preview = derivative(display.fitting(longEdge: settings.preview))
        var sizes: Set<PixelSize> = [thumbnail.size, preview.size]
        for width in settings.widths where width < preview.size.width {
            sizes.insert(display.fitting(width: width))
        }
        all = sizes.sorted { ($0.width, $0.height) > ($1.width, $1.height) }.map(derivative)
        webp = settings.webp
    }

    /// The smallest size every derivative fits inside.
    public var largest: PixelSize {
        PixelSize(width: all.map(\.size.width).max() ?? 1, height: all.map(\.size.height).max() ?? 1)
    }
}
