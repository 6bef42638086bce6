import Foundation

/// The `sizes` of a grid page's tiles, from the layout the stylesheet produces (issue 14: a phone
/// should download the file its tiles need at DPR 3, not one twice as large).
extension SiteRenderer {
    /// The gap between tiles and `main`'s padding each side (`--gap` in `style.css`), in CSS px.
    package static let gridGap = 6.0

    /// `sizes` for each tile of a grid page whose photos have these aspect ratios, in page order.
    ///
    /// On phones (`max-width: 600px`) the tiles are laid out in the rows of `GridLayout.phone()`
    /// (the stylesheet's --pf and --pg; `justify.js` makes the same rows at the real width): a
    /// tile is its share of the grid (the screen less 12 px) less its row's gaps, so its width is
    /// `calc(A vw - B px)` on every phone. On wider screens rows start at 220 px and are
    /// stretched by about `rowStretch`.
    package static func gridSizes(aspects: [Double]) -> [String] {
        let wide = aspects.map { aspect -> String in
            "\(Formatting.fixed((aspect * rowHeightEm * 16 * rowStretch).rounded(.up), digits: 0))px"
        }
        return zip(phoneTileWidths(aspects: aspects), wide).map { "(max-width: 600px) \($0), \($1)" }
    }

    /// The width of each tile on a phone, as a CSS length of the screen width (see `gridSizes`).
    static func phoneTileWidths(aspects: [Double]) -> [String] {
        GridLayout.phone(gap: gridGap).tiles(aspects).map { place in
            vw(place.share * 100, minus: place.share * (2 * gridGap + place.gaps))
        }
    }

    /// A photo's width over its height, as it is shown.
    package static func aspect(_ item: GalleryItem) -> Double {
        Double(item.displaySize.width) / Double(item.displaySize.height)
    }

    /// `12.34vw` or `calc(50vw - 9px)`.
    private static func vw(_ value: Double, minus px: Double) -> String {
        func short(_ text: String) -> String {
            text.contains(".") ? String(text.reversed().drop { $0 == "0" }.drop { $0 == "." }.reversed()) : text
        }
        let length = "\(short(Formatting.fixed(value, digits: 2)))vw"
        return px < 0.05 ? length : "calc(\(length) - \(short(Formatting.fixed(px, digits: 1)))px)"
    }
}
