import GalleryModel

/// An 8-bit RGB image in memory, rows top to bottom, three bytes a pixel, no padding.
package struct Bitmap: Sendable, Equatable {
    package let width: Int
    package let height: Int
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 3, "bitmap size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The width and height together.
    package var size: PixelSize { PixelSize(width: width, height: height) }

    /// The RGB value at a position, for tests and placeholders.
    package func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8) {
        let offset = (y * width + x) * 3
        return (pixels[offset], pixels[offset + 1], pixels[offset + 2])
    }
}
