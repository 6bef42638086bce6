/// An 8-bit sRGB colour, such as the one `images.background` names for transparent pixels.
///
/// Here rather than in GalleryConfig because the codecs composite over it: GalleryImaging takes
/// the colour, not the config it came from.
package struct RGB: Sendable, Equatable {
    package var red: UInt8, green: UInt8, blue: UInt8
    package init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }
}
