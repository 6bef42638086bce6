import Foundation

/// Justified rows whose breaks are chosen over a whole run of photos (issue 29): the least total
/// badness, as Knuth–Plass breaks a paragraph into lines, instead of flexbox's greedy wrapping,
/// which leaves a portrait alone in a row two thirds of a phone's screen tall between panoramas.
///
/// A row's badness is how far its height is from the target (squared, in log terms, so twice as
/// tall weighs as half as tall), plus any crop, plus a steep price for a row taller than `most`
/// (half the screen). A row that would be taller than `most` may be cropped: its photos keep at
/// least `crop` of their height, so that it fits or comes nearer. The row that ends the run, when
/// its photos fit at the target height, stays there unstretched, as text's last line does.
///
/// `Templates/static/justify.js` applies the same rules in the browser at the grid's real width;
/// this one lays out the phone grid at build time for pages read without JavaScript. Its shares
/// of the width hold at every phone width (only the gaps are in px), so the rows are the same.
package struct GridLayout: Sendable {
    /// One row: the tiles `range` of the run, the height at which they fill the width (`natural`),
    /// the height shown (less where cropped, the target for a `short` last row).
    package struct Row: Equatable, Sendable {
        package var range: Range<Int>
        package var natural: Double
        package var shown: Double
        package var short: Bool
        package var cost: Double
    }

    /// The least of a photo's height (or width) a cropped tile shows.
    package static let crop = 0.85

    /// The grid's width, the gap between tiles, the row height aimed at and the most a row may be, in px.
    package var width: Double
    package var gap: Double
    package var target: Double
    package var most: Double

    package init(width: Double, gap: Double, target: Double, most: Double) {
        self.width = width
        self.gap = gap
        self.target = target
        self.most = most
    }

    /// The phone grid on a `screenWidth` × `screenHeight` screen: the width less `main`'s padding,
    /// rows aimed at 0.4 of the grid's width (two or three photos) and at most half the screen tall.
    package static func phone(screenWidth: Double = 390, screenHeight: Double = 844, gap: Double = 6) -> GridLayout {
        let width = screenWidth - 2 * gap
        return GridLayout(width: width, gap: gap, target: width * 0.4, most: screenHeight * 0.5)
    }

    /// The row of `count` photos whose aspect ratios add up to `sum`; `last` when it ends the run.
    package func row(_ range: Range<Int>, sum: Double, last: Bool) -> Row {
        let natural = (width - gap * Double(range.count - 1)) / sum
        if last && natural >= target {
            return Row(range: range, natural: natural, shown: target, short: true, cost: 0)
        }
        let shown = natural > most ? max(most, natural * Self.crop) : natural
        let off = log(shown / target)
        let crop = log(natural / shown)
        let over = log(shown / most)
        let cost = off * off + 2 * crop * crop + (over > 0.001 ? 10 + 100 * over * over : 0)
        return Row(range: range, natural: natural, shown: shown, short: false, cost: cost)
    }

    /// The rows of photos with these aspect ratios, of least total badness; with `closed` the last
    /// row fills the width too.
    package func rows(_ aspects: [Double], closed: Bool = false) -> [Row] {
        let count = aspects.count
        guard count > 0 else { return [] }
        var best = [0.0] + Array(repeating: Double.infinity, count: count)
        var from = Array(repeating: 0, count: count + 1)
        for end in 1...count {
            var sum = 0.0
            for start in stride(from: end - 1, through: 0, by: -1) {
                sum += aspects[start]
                let line = row(start..<end, sum: sum, last: end == count && !closed)
                if best[start] + line.cost < best[end] {
                    best[end] = best[start] + line.cost
                    from[end] = start
                }
                if line.natural < target * 0.35 { break }  // longer rows only get flatter
            }
        }
        var rows: [Row] = []
        var end = count
        while end > 0 {
            let start = from[end]
            rows.append(row(start..<end, sum: aspects[start..<end].reduce(0, +), last: end == count && !closed))
            end = start
        }
        return rows.reversed()
    }

    /// Each tile's place in its row: its share of the row's width less the row's gaps, those gaps
    /// in px, and its shape as shown (the photo's own but for a crop): `justify.js`'s --jf, --jg, --ja.
    package func tiles(_ aspects: [Double], closed: Bool = false) -> [TilePlace] {
        rows(aspects, closed: closed).flatMap { row -> [TilePlace] in
            let sum = aspects[row.range].reduce(0, +)
            let gaps = row.short ? 0 : gap * Double(row.range.count - 1)
            return row.range.map { index in
                let aspect = aspects[index]
                // A share a hair under the exact one, rounded down to the 5 digits the page
                // writes, so rounding never pushes a row's last tile down to the next row.
                let exact = row.short ? aspect * row.shown / width : aspect / sum
                return TilePlace(
                    share: (exact * 0.99999 * 100_000).rounded(.down) / 100_000, gaps: gaps,
                    shape: row.short ? aspect : aspect * row.natural / row.shown)
            }
        }
    }
}

/// A tile's place in a justified row (see `GridLayout.tiles`).
package struct TilePlace: Equatable, Sendable {
    package var share: Double
    package var gaps: Double
    package var shape: Double
}
