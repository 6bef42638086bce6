import Foundation

/// The `sizes` of a grid page's tiles, from the layout the stylesheet produces (issue 14: a phone
/// should download the file its tiles need at DPR 3, not one twice as large).
extension SiteRenderer {
    /// The gap between tiles and `main`'s padding each side (`--gap` in `style.css`), in CSS px.
    package static let gridGap = 6.0

    /// The screen width, in CSS px, at which the phone rows are laid out to find which tiles share
    /// a row. A row's tiles are the same on most phones (360–430 px): what decides the break is the
    /// tiles' flex-basis in vw against the grid's width, and only the 12 px of padding and the gaps
    /// do not scale with the screen.
    package static let phoneReferenceWidth = 390.0

    /// `sizes` for each tile of a grid page whose photos have these aspect ratios, in page order.
    ///
    /// On phones (`max-width: 600px`) the tiles are laid out as the stylesheet's flex rows lay them
    /// out: a tile's flex-basis is its aspect ratio × `rowHeightEm` em of the grid's font
    /// (`phoneGridFontVW`), its flex-grow its aspect ratio × 100 (rounded, as the page writes it),
    /// a row takes tiles while their bases and gaps fit the grid (the screen less 12 px), and a full
    /// row shares its free room by flex-grow, so each tile's width is `calc(A vw - B px)`. The last
    /// row is not stretched (the grid's `::after` takes its room), so its tiles are their basis. On
    /// wider screens rows start at 220 px and are stretched by about `rowStretch`.
    package static func gridSizes(aspects: [Double]) -> [String] {
        let wide = aspects.map { aspect -> String in
            "\(Formatting.fixed((aspect * rowHeightEm * 16 * rowStretch).rounded(.up), digits: 0))px"
        }
        return zip(phoneTileWidths(aspects: aspects), wide).map { "(max-width: 600px) \($0), \($1)" }
    }

    /// The width of each tile on a phone, as a CSS length of the screen width (see `gridSizes`).
    package static func phoneTileWidths(aspects: [Double]) -> [String] {
        // Per vw of screen: a tile's basis, as the page writes it (em to 2 decimals).
        let basis = aspects.map { aspect in (aspect * rowHeightEm * 100).rounded() / 100 * phoneGridFontVW / 100 }
        let grow = aspects.map { max(1, ($0 * 100).rounded()) }
        let screen = phoneReferenceWidth, padding = 2 * gridGap
        var widths: [String] = []
        var start = 0
        while start < aspects.count {
            var end = start + 1
            var used = basis[start] * screen
            while end < aspects.count, used + gridGap + basis[end] * screen <= screen - padding {
                used += gridGap + basis[end] * screen
                end += 1
            }
            // The grid's `::after` (no width, a gap before it) joins the last row when it fits;
            // there it takes all the free room and the tiles keep their basis.
            let last = end == aspects.count && used + gridGap <= screen - padding
            let row = start..<end
            if last {
                widths += row.map { vw(basis[$0] * 100, minus: 0) }
            } else {
                let grows = row.map { grow[$0] }.reduce(0, +), bases = row.map { basis[$0] }.reduce(0, +)
                let gaps = padding + gridGap * Double(row.count - 1)
                widths += row.map { index in
                    let share = grow[index] / grows
                    return vw((basis[index] + share * (1 - bases)) * 100, minus: share * gaps)
                }
            }
            start = end
        }
        return widths
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
