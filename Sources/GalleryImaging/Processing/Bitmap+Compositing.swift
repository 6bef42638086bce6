import GalleryModel

/// Flattening four-channel pixels onto a background, for the formats that carry transparency.
extension Bitmap {
    /// Composites RGBA rows over `background` into an RGB bitmap, in sRGB space as browsers do.
    ///
    /// - Parameters:
    ///   - rgba: Rows of four bytes a pixel, `rowBytes` apart; only read during the call.
    ///   - premultiplied: Whether colour is already multiplied by alpha (libtiff's RGBA interface
    ///     delivers associated alpha; libwebp, libheif and giflib straight alpha).
    static func compositing(
        rgba: UnsafeRawBufferPointer, width: Int, height: Int, rowBytes: Int,
        premultiplied: Bool = false, over background: RGB
    ) -> Bitmap {
        precondition(
            rowBytes >= width * 4 && rgba.count >= rowBytes * (height - 1) + width * 4, "RGBA buffer too small")
        let back = [Int(background.red), Int(background.green), Int(background.blue)]
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeMutableBufferPointer { out in
            for y in 0..<height {
                let row = y * rowBytes
                for x in 0..<width {
                    let source = row + x * 4
                    let target = (y * width + x) * 3
                    let alpha = Int(rgba[source + 3])
                    for channel in 0..<3 {
                        let colour = Int(rgba[source + channel])
                        let value =
                            premultiplied
                            ? min(255, colour + (back[channel] * (255 - alpha) + 127) / 255)
                            : (colour * alpha + back[channel] * (255 - alpha) + 127) / 255
                        out[target + channel] = UInt8(value)
                    }
                }
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }
}
