import GalleryConfig
import GalleryModel

/// How a photo's derivatives are planned from the image settings: the sizes `images.thumbnail`,
/// `images.preview` and `images.widths` ask for, and the grid's own steps between them.
extension DerivativePlan {
    /// How much wider a grid step may be than the one before: 1.2 times, so a tile's file has at
    /// most 1.44 times the pixels it needs, and about 1.2 times on average.
    package static let gridStep = 1.2
    /// A size that already exists is used as a step when it is at most this much wider than the step.
    static let gridSnap = 1.05
    /// The steps go up to a file this tall: a phone's grid rows are at most about 200 CSS px tall
    /// (`style.css`, `SiteRenderer.phoneGridFontVW`), 600 px at 3 device pixels per CSS pixel.
    package static let gridTallest = 600

    /// The widths the grid's own steps add for a photo of this aspect ratio (width over height):
    /// from the thumbnail's width up to the first width at least `gridTallest` tall, wherever
    /// `widths` (the other sizes) leave a gap wider than `gridStep`; never as wide as the widest of
    /// `widths` (no upscaling, and the preview covers the rest).
    static func gridWidths(thumbnail: Int, widths: [Int], aspect: Double) -> [Int] {
        let widths = widths.sorted()
        var width = thumbnail
        var added: [Int] = []
        while Double(width) / aspect < Double(gridTallest) {
            let step = Double(width) * gridStep
            if let next = widths.first(where: { $0 > width }), Double(next) <= step * gridSnap {
                width = next
                continue
            }
            let next = max(width + 1, Int(step.rounded()))
            guard next < (widths.last ?? 0) else { break }
            added.append(next)
            width = next
        }
        return added
    }

    /// Plans the derivatives of a photo shown at `display` size.
    package init(display: PixelSize, settings: ImageSettings, folder: String) {
        func derivative(_ size: PixelSize) -> Derivative {
            Derivative(size: size, folder: folder)
        }
        let thumbnail = derivative(display.fitting(longEdge: settings.thumbnail))
        let preview = derivative(display.fitting(longEdge: settings.preview))
        var sizes: Set<PixelSize> = [thumbnail.size, preview.size]
        for width in settings.widths where width < preview.size.width {
            sizes.insert(display.fitting(width: width))
        }
        let sized = sizes.sorted { ($0.width, $0.height) > ($1.width, $1.height) }.map(derivative)
        let steps =
            !settings.gridSteps
            ? []
            : Self.gridWidths(
                thumbnail: thumbnail.size.width, widths: sizes.map(\.width),
                aspect: Double(display.width) / Double(display.height)
            )
            .map { display.fitting(width: $0) }.filter { !sizes.contains($0) }
        let gridSteps = Set(steps).sorted { ($0.width, $0.height) > ($1.width, $1.height) }.map(derivative)
        self.init(
            thumbnail: thumbnail, preview: preview, all: sized + gridSteps, gridSteps: gridSteps,
            webp: settings.webp, avif: settings.avif)
    }
}
