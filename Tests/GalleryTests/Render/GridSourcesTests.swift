import Foundation
import GalleryConfig
import GalleryImaging
import GalleryModel
import GalleryRender
import Testing

/// What a grid tile offers a browser (issue 14: a phone grid downloads at most 1.3 times the pixels
/// its tiles need at DPR 3): the grid's own sizes between the thumbnail and 600 px tall, which
/// leave the other sizes and their cache keys as they were, and `sizes` that give each tile its
/// width in the stylesheet's phone rows.
@Suite("Grid sources and sizes")
struct GridSourcesTests {
    @Test func gridStepsFillTheGapsBetweenTheThumbnailAndSixHundredPixelsTall() throws {
        let plan = try DerivativePlan(
            display: PixelSize(width: 3000, height: 2000), settings: .defaults(), folder: "photos/a")
        #expect(plan.gridSteps.map(\.size.width) == [960, 691, 576])
        #expect(plan.all.map(\.size.width) == [1600, 1200, 800, 480, 400, 960, 691, 576], "the grid's sizes come last")
        #expect(plan.thumbnailSources.map(\.size.width) == [400, 480, 576, 691, 800, 960, 1200, 1600])
        #expect(plan.previewSources.map(\.size.width) == [400, 480, 800, 1200, 1600], "the photo page keeps its sizes")
        // Each step is at most 1.2 times (and 5 %) wider than the one before, up to 600 px tall.
        let grid = plan.thumbnailSources.filter { $0.size.height <= DerivativePlan.gridTallest }
        for (small, large) in zip(grid, grid.dropFirst()) {
            #expect(
                Double(large.size.width) <= Double(small.size.width) * DerivativePlan.gridStep * 1.05,
                "\(small.size) → \(large.size)")
        }
        #expect(plan.thumbnailSources.contains { $0.size.height >= DerivativePlan.gridTallest && $0.size.width < 1200 })

        let portrait = try DerivativePlan(
            display: PixelSize(width: 2000, height: 3000), settings: .defaults(), folder: "photos/p")
        #expect(
            portrait.gridSteps.map(\.size) == [PixelSize(width: 384, height: 576), PixelSize(width: 320, height: 480)])
        #expect(portrait.thumbnailSources.map(\.size.width) == [267, 320, 384, 480, 800, 1067])

        // Never wider than the photo (here its own size, the preview, is the step after 480), and
        // nothing for a photo no larger than its thumbnail.
        let small = try DerivativePlan(display: PixelSize(width: 600, height: 400), settings: .defaults(), folder: "s")
        #expect(small.gridSteps.isEmpty && small.thumbnailSources.map(\.size.width) == [400, 480, 600])
        let medium = try DerivativePlan(display: PixelSize(width: 750, height: 500), settings: .defaults(), folder: "s")
        #expect(medium.gridSteps.map(\.size.width) == [691, 576] && medium.all.allSatisfy { $0.size.width <= 750 })
        let tiny = try DerivativePlan(display: PixelSize(width: 120, height: 80), settings: .defaults(), folder: "t")
        #expect(tiny.all.map(\.size) == [PixelSize(width: 120, height: 80)] && tiny.gridSteps.isEmpty)
        let sliver = try DerivativePlan(display: PixelSize(width: 3, height: 3000), settings: .defaults(), folder: "t")
        #expect(sliver.all.allSatisfy { $0.size.width <= 3 })
    }

    /// `images.gridSteps: false` (the benchmarks' jobs) makes the other sizes alone, and the grid
    /// offers those.
    @Test func gridStepsCanBeTurnedOff() throws {
        let file = URL(fileURLWithPath: "/sites/demo/site-config.json")
        func settings(_ images: String) throws -> ImageSettings {
            let json = #"{"source": {"type": "folder", "path": "photos"}, "images": \#(images)}"#
            return try SiteConfig.parse(Data(json.utf8), file: file, environment: [:]).images
        }
        #expect(try settings("{}").gridSteps && ImageSettings.defaults().gridSteps)
        let off = try settings(#"{"gridSteps": false, "widths": []}"#)
        let plan = DerivativePlan(display: PixelSize(width: 3000, height: 2000), settings: off, folder: "photos/a")
        #expect(plan.gridSteps.isEmpty && plan.all.map(\.size.width) == [1600, 400])
        #expect(plan.thumbnailSources.map(\.size.width) == [400, 1600])
        #expect(throws: (any Error).self) { try settings(#"{"gridSteps": "no"}"#) }
    }

    /// The grid's sizes are made after the others, so the others are resampled from the same
    /// sizes as before and keep their cache keys: an incremental build makes only the new files.
    @Test func gridStepsLeaveTheOtherSizesKeysAsTheyWere() throws {
        let processor = try ImageProcessor(settings: .defaults())
        for size in [
            PixelSize(width: 4000, height: 6000), PixelSize(width: 6000, height: 4000),
            PixelSize(width: 4000, height: 1000)
        ] {
            let facts = OriginalFacts(format: .jpeg, size: size, exif: ExifInfo())
            let layout = try processor.layout(facts, folder: "photos/a")
            var without = layout
            without.plan.all.removeAll { layout.plan.gridSteps.contains($0) }
            without.plan.gridSteps = []
            #expect(!layout.plan.gridSteps.isEmpty)
            let keys = processor.keys(contentHash: Fixtures.key("h"), facts: facts, layout: layout)
            let before = processor.keys(contentHash: Fixtures.key("h"), facts: facts, layout: without)
            let now = Dictionary(uniqueKeysWithValues: keys.files.map { ($0.path, $0.key) })
            #expect(keys.thumbnail == before.thumbnail, "\(size)")
            for file in before.files { #expect(now[file.path] == file.key, "\(size): \(file.path)") }
            #expect(keys.files.count == before.files.count + layout.plan.gridSteps.count)
        }
    }

    /// A `sizes` length (`12.5vw` or `calc(50vw - 9px)`) at a screen `width` px wide.
    func evaluate(_ length: String, width: Double) -> Double {
        let numbers = length.split(whereSeparator: { !"0123456789.".contains($0) }).compactMap { Double($0) }
        return numbers[0] * width / 100 - (numbers.count > 1 ? numbers[1] : 0)
    }

    /// Each phone width is what the stylesheet's phone rows (`GridLayout.phone()`, issue 29) give
    /// the tile: the grid is the screen less 12 px, tiles 6 px apart; a full row shares the grid
    /// less its gaps by aspect ratio, the last, short row keeps the target height (0.4 of the
    /// grid's width), and a panorama between portraits shares their rows.
    @Test func phoneSizesAreEachTilesWidthInItsRow() throws {
        let css = String(decoding: try #require(DefaultTheme.files["static/style.css"]), as: UTF8.self)
        #expect(
            css.contains("--gap: \(Int(SiteRenderer.gridGap))px;")
                && css.contains("main { flex: 1; padding: 1rem var(--gap); }"))
        #expect(css.contains("flex: 0 0 calc((100% - var(--pg)) * var(--pf))"))
        // A portrait and a 3:2 photo, two 16:10 photos, a 3:1 panorama, then three 3:2 photos.
        let aspects = [2.0 / 3, 1.5, 1.6, 1.6, 3, 1.5, 1.5, 1.5]
        let sizes = SiteRenderer.gridSizes(aspects: aspects)
        let phone = try sizes.map {
            try #require($0.split(separator: ",").first?.dropFirst("(max-width: 600px) ".count))
        }
        let rows = GridLayout.phone().rows(aspects)
        #expect(rows.flatMap { Array($0.range) } == Array(aspects.indices))
        for width in [360.0, 390, 430] {
            let grid = width - 12
            for row in rows {
                let sum = aspects[row.range].reduce(0, +)
                let gaps = 6 * Double(row.range.count - 1)
                for index in row.range {
                    let expected = row.short ? aspects[index] * 0.4 * grid : aspects[index] / sum * (grid - gaps)
                    #expect(
                        abs(evaluate(String(phone[index]), width: width) - expected) < 1,
                        "\(width) px, tile \(index): \(phone[index]), not \(expected)")
                }
            }
        }
        // Wider screens: rows start at 220 px and are stretched by about 1.25 (justify.js aims at 270 px).
        #expect(sizes[1].hasSuffix(", \(Int((1.5 * 13.75 * 16 * SiteRenderer.rowStretch).rounded(.up)))px"))
    }
}
