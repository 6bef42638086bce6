import Foundation
import GalleryRender
import Testing

/// The justified grid's line breaker (issue 29, fault 4): rows chosen over the whole page, not
/// greedily; none taller than half the screen; a bounded crop; every row but a short last one
/// filling the width.
@Suite("Grid layout")
struct GridLayoutTests {
    static let portrait = 2.0 / 3, panorama = 3.0, landscape = 1.5, square = 1.0

    /// Each row's tiles at their shown height fill the width (less the gaps), but a short last row.
    func assertFills(_ layout: GridLayout, _ aspects: [Double], _ rows: [GridLayout.Row]) {
        #expect(rows.flatMap { Array($0.range) } == Array(aspects.indices), "rows cover each tile once, in order")
        for row in rows where !row.short {
            let width =
                aspects[row.range].reduce(0) { $0 + $1 * row.natural } + layout.gap * Double(row.range.count - 1)
            #expect(abs(width - layout.width) < 0.001, "row \(row.range) is \(width) px wide")
        }
        #expect(rows.dropLast().allSatisfy { !$0.short }, "only the last row may be short")
    }

    /// Where panoramas and portraits alternate, flexbox's greedy rows left each portrait alone in
    /// a 567 px row (67 % of a 390 × 844 screen); these rows pair them and stay under half of it.
    @Test func alternatingPanoramasAndPortraitsShareRowsOnAPhone() {
        let layout = GridLayout.phone()
        let aspects = (0..<10).flatMap { _ in [Self.panorama, Self.portrait] }
        let rows = layout.rows(aspects)
        assertFills(layout, aspects, rows)
        #expect(rows.allSatisfy { $0.shown <= 844 / 2 }, "\(rows.map(\.shown))")
        #expect(rows.allSatisfy { $0.shown >= 100 && $0.shown <= 300 }, "\(rows.map(\.shown))")
        #expect(
            !rows.contains { !$0.short && $0.range.count == 1 && aspects[$0.range.lowerBound] < 1 },
            "a portrait alone in a full row")
    }

    /// The mixed shapes of the audit's 40-photo site: phone rows within 100–300 px.
    @Test func mixedShapesMakeRowsOfHundredToThreeHundredPixels() {
        let shapes = [
            Self.landscape, Self.portrait, Self.square, Self.panorama, Self.landscape, Self.landscape, Self.portrait
        ]
        let aspects = (0..<40).map { shapes[($0 * 3) % shapes.count] }
        let layout = GridLayout.phone()
        let rows = layout.rows(aspects)
        assertFills(layout, aspects, rows)
        for row in rows { #expect(row.shown >= 100 && row.shown <= 300, "row \(row.range): \(row.shown) px") }
    }

    /// The breaks are the least total badness of all ways to break the run (checked against every
    /// one of them), and at least as good as greedy filling.
    @Test func breaksAreTheLeastBadOfAllBreakings() {
        let layout = GridLayout(width: 1268, gap: 6, target: 240, most: 400)
        let aspects = [1.5, 0.667, 3, 1, 1.5, 0.667, 0.667, 1.78, 3, 1.5, 1]
        let chosen = layout.rows(aspects).reduce(0) { $0 + $1.cost }
        var best = Double.infinity
        // Each of the 2^(n-1) sets of breaks between tiles.
        for mask in 0..<(1 << (aspects.count - 1)) {
            var cost = 0.0
            var start = 0
            for end in 1...aspects.count where end == aspects.count || mask & (1 << (end - 1)) != 0 {
                cost += layout.row(start..<end, sum: aspects[start..<end].reduce(0, +), last: end == aspects.count).cost
                start = end
            }
            best = min(best, cost)
        }
        #expect(abs(chosen - best) < 1e-9, "\(chosen) against \(best)")
    }

    /// A lone photo too tall for half the screen is cropped to at most 15 % of its height; the
    /// shape shown is the photo's own otherwise.
    @Test func cropIsBoundedAndOnlyWhereARowWouldBeTooTall() {
        let layout = GridLayout.phone()
        let lone = layout.rows([Self.portrait], closed: true)
        #expect(
            lone.count == 1 && lone[0].shown >= lone[0].natural * GridLayout.crop - 1e-9
                && lone[0].shown < lone[0].natural)
        let places = layout.tiles([Self.landscape, Self.landscape, Self.portrait, Self.landscape, Self.square])
        for (place, aspect) in zip(places, [Self.landscape, Self.landscape, Self.portrait, Self.landscape, Self.square])
        {
            #expect(place.shape >= aspect - 1e-9 && place.shape <= aspect / GridLayout.crop + 1e-9)
        }
    }

    /// The run's last row, when its photos fit at the target height, stays there unstretched;
    /// `closed` (a page put before others) fills it; shares of a full row add up to just under 1.
    @Test func theLastRowIsShortUnlessClosed() {
        let layout = GridLayout(width: 1268, gap: 6, target: 240, most: 400)
        let aspects = [1.5, 1.5, 1.5, 1.5, 1.5, 1.5]
        let open = layout.rows(aspects)
        #expect(open.last?.short == true && open.last?.shown == 240)
        #expect(layout.rows(aspects, closed: true).allSatisfy { !$0.short })
        let places = layout.tiles(aspects, closed: true)
        var start = 0
        for row in layout.rows(aspects, closed: true) {
            let shares = places[row.range].reduce(0) { $0 + $1.share }
            #expect(shares < 1 && shares > 0.9999, "row from \(start): \(shares)")
            start = row.range.upperBound
        }
        #expect(layout.rows([]).isEmpty)
    }
}
