import GalleryModel

/// Applies EXIF orientation so that pixels are stored the way the photo should be seen.
///
/// The eight values follow the EXIF 2.32 specification (tag 0x0112): 2 and 4 mirror, 3 rotates a
/// half turn, 6 and 8 rotate a quarter turn clockwise and anticlockwise, 5 and 7 transpose.
package enum Orientation {
    /// The displayed size of a stored image with this orientation.
    package static func displaySize(of size: PixelSize, orientation: Int) -> PixelSize {
        orientation >= 5 && orientation <= 8 ? size.transposed : size
    }

    /// Where a region of a stored bitmap of size `stored` lies once the bitmap is turned upright.
    ///
    /// Mirroring moves a DCT-scaled decode's partial last block from the right or bottom edge to the
    /// left or top, so the region's origin moves with it.
    package static func apply(_ orientation: Int, to region: SourceRegion, in stored: PixelSize) -> SourceRegion {
        guard (2...8).contains(orientation) else { return region }
        var r = region
        var size = (width: Double(stored.width), height: Double(stored.height))
        if orientation >= 5 {  // 5–8 transpose first, then mirror in the transposed frame
            r = SourceRegion(x: r.y, y: r.x, width: r.height, height: r.width)
            size = (size.height, size.width)
        }
        let mirrorX = [2, 3, 6, 7].contains(orientation)
        let mirrorY = [3, 4, 7, 8].contains(orientation)
        if mirrorX { r.x = size.width - r.x - r.width }
        if mirrorY { r.y = size.height - r.y - r.height }
        return r
    }

    /// Returns the bitmap turned upright. Orientation 1 (or anything out of range) returns it unchanged.
    package static func apply(_ orientation: Int, to bitmap: Bitmap) -> Bitmap {
        guard (2...8).contains(orientation) else { return bitmap }
        let width = bitmap.width
        let height = bitmap.height
        let out = displaySize(of: PixelSize(width: width, height: height), orientation: orientation)
        // For a displayed pixel (x, y): stored x = ax*x + bx*y + cx, stored y = ay*x + by*y + cy.
        let (ax, bx, cx, ay, by, cy): (Int, Int, Int, Int, Int, Int)
        switch orientation {
        case 2: (ax, bx, cx, ay, by, cy) = (-1, 0, width - 1, 0, 1, 0)
        case 3: (ax, bx, cx, ay, by, cy) = (-1, 0, width - 1, 0, -1, height - 1)
        case 4: (ax, bx, cx, ay, by, cy) = (1, 0, 0, 0, -1, height - 1)
        case 5: (ax, bx, cx, ay, by, cy) = (0, 1, 0, 1, 0, 0)
        case 6: (ax, bx, cx, ay, by, cy) = (0, 1, 0, -1, 0, height - 1)
        case 7: (ax, bx, cx, ay, by, cy) = (0, -1, width - 1, -1, 0, height - 1)
        default: (ax, bx, cx, ay, by, cy) = (0, -1, width - 1, 1, 0, 0)
        }
        var pixels = PixelBuffers.take(bitmap.pixels.count)  // every byte is written below
        bitmap.pixels.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                var index = 0
                for y in 0..<out.height {
                    for x in 0..<out.width {
                        let sx = ax * x + bx * y + cx
                        let sy = ay * x + by * y + cy
                        let from = (sy * width + sx) * 3
                        target[index] = source[from]
                        target[index + 1] = source[from + 1]
                        target[index + 2] = source[from + 2]
                        index += 3
                    }
                }
            }
        }
        return Bitmap(width: out.width, height: out.height, pixels: pixels)
    }
}
