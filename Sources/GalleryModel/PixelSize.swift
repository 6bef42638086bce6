import Foundation

/// The pixel size of an image.
package struct PixelSize: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    package var description: String { "\(width)×\(height)" }
    package var pixelCount: Int { width * height }
    package var longEdge: Int { max(width, height) }
    package var transposed: PixelSize { PixelSize(width: height, height: width) }

    /// The size scaled so its long edge is at most `edge`, keeping the aspect ratio; never larger than self.
    package func fitting(longEdge edge: Int) -> PixelSize {
        guard longEdge > edge else { return self }
        let scale = Double(edge) / Double(longEdge)
        return PixelSize(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded())))
    }

    /// The size scaled to `target` width, keeping the aspect ratio; never larger than self.
    package func fitting(width target: Int) -> PixelSize {
        guard width > target else { return self }
        let scale = Double(target) / Double(width)
        return PixelSize(width: target, height: max(1, Int((Double(height) * scale).rounded())))
    }
}
