import GalleryConfig
import GalleryImaging
import GalleryModel
import GalleryOutput

/// A built site's files sorted by what made them, so that what a settings change saves can be
/// counted from the files themselves: each photo's derivatives by size and format (`WxH.jpg`,
/// `.webp`, `.avif`, `DerivativePlan`), published originals (`original.*`), album zips (`*.zip`)
/// and the rest (pages, clips, the theme's files), which no image setting changes.
///
/// A setting such as `images.widths` changes more than the files of that width: the grid's own
/// sizes (`DerivativePlan.gridSteps`) fill the gap it leaves. So each photo's sizes are planned
/// again with the changed settings, from its largest derivative (its preview, which has the
/// photo's shape), by the build's own planner. A photo is planned again only when the config's
/// plan of that size gives exactly the widths and formats it has; the others (built with other
/// settings, or under opaque names in a password-protected site) keep their files in every count,
/// and are counted in `unplanned`. Photos of one largest size plan alike, so they are planned
/// once, as a group, whatever the size of the library.
struct SiteInventory {
    /// One photo's derivatives, as files and by width (a photo's sizes differ in width; the
    /// height of a size planned again from the preview may be a pixel off the built one's).
    struct Photo {
        var files: [(size: PixelSize, format: String, bytes: Int)] = []
        /// Width → format (file extension) → bytes.
        var widths: [Int: [String: Int]] = [:]
        /// The largest derivative, from which its sizes are planned again.
        var largest = PixelSize(width: 0, height: 0)

        mutating func add(_ size: PixelSize, _ format: String, _ bytes: Int) {
            files.append((size, format, bytes))
            widths[size.width, default: [:]][format] = bytes
            if (size.pixelCount, size.width) > (largest.pixelCount, largest.width) { largest = size }
        }
    }

    /// Photos of one largest size whose files are the config's plan of it: how many, and their
    /// bytes summed by width and format.
    struct Group {
        var photos = 0
        var widths: [Int: [String: Int]] = [:]
    }

    /// The settings a variant of the site may change, each as the built site has it.
    struct Variant: Hashable {
        var widths: [Int]
        var gridSteps: Bool
        var webp: Bool
        var avif: Bool
        var originals: Bool
        var zips: Bool
    }

    /// Files and bytes of the site a variant would build; `estimated` files are sizes the site
    /// does not have yet, counted at the bytes of the next wider one of the same photo and format.
    struct Tally: Equatable {
        var files = 0
        var bytes = 0
        var estimated = 0
    }

    static let formats = ["jpg", "webp", "avif"]

    let settings: ImageSettings
    let current: Variant
    /// Planned photos by their largest size.
    private(set) var groups: [PixelSize: Group] = [:]
    /// Derivatives of photos that are not planned, by format: files and bytes.
    private(set) var unplannedFiles: [String: (files: Int, bytes: Int)] = [:]
    private(set) var unplanned = 0
    private(set) var originals: [SiteMeasure.File] = []
    private(set) var zips: [SiteMeasure.File] = []
    private(set) var rest = Tally()

    init(_ measure: SiteMeasure, settings: ImageSettings) {
        self.settings = settings
        var photos: [String: Photo] = [:]
        for file in measure.files {
            let name = SiteMeasure.name(of: file.path)
            if let derivative = Self.derivative(name) {
                photos[SiteMeasure.folder(of: file.path), default: Photo()].add(
                    derivative.size, derivative.format, file.bytes)
            } else if name.hasPrefix("original.") {
                originals.append(file)
            } else if name.hasSuffix(".zip") {
                zips.append(file)
            } else {
                rest.files += 1
                rest.bytes += file.bytes
            }
        }
        let current = Variant(
            widths: settings.widths, gridSteps: settings.gridSteps, webp: settings.webp, avif: settings.avif,
            originals: !originals.isEmpty, zips: !zips.isEmpty)
        self.current = current
        let formats = Self.formatSet(of: current)
        var plans: [PixelSize: [PixelSize]] = [:]
        for photo in photos.values {
            let planned = Self.plan(photo.largest, current, settings, &plans).map(\.width)
            if planned.count == photo.widths.count && Set(planned) == Set(photo.widths.keys)
                && photo.files.count == planned.count * formats.count
                && photo.widths.values.allSatisfy({ Set($0.keys) == formats })
            {
                var group = groups[photo.largest, default: Group()]
                group.photos += 1
                for (width, bytes) in photo.widths {
                    group.widths[width, default: [:]].merge(bytes, uniquingKeysWith: +)
                }
                groups[photo.largest] = group
            } else {
                unplanned += 1
                for file in photo.files {
                    let known = unplannedFiles[file.format] ?? (0, 0)
                    unplannedFiles[file.format] = (known.files + 1, known.bytes + file.bytes)
                }
            }
        }
    }

    /// The files and bytes of the site built with `variant`.
    func tally(_ variant: Variant) -> Tally {
        var tally = rest
        if variant.originals { tally.add(originals) }
        if variant.zips { tally.add(zips) }
        let formats = Self.formatSet(of: variant)
        for (format, files) in unplannedFiles where formats.contains(format) {
            tally.files += files.files
            tally.bytes += files.bytes
        }
        var plans: [PixelSize: [PixelSize]] = [:]
        for (largest, group) in groups {
            let built = group.widths.keys.sorted()
            for size in Self.plan(largest, variant, settings, &plans) {
                let known = group.widths[size.width]
                let wider = known ?? built.first { $0 > size.width }.flatMap { group.widths[$0] }
                for format in formats {
                    tally.files += group.photos
                    tally.bytes += wider?[format] ?? 0
                    if known == nil { tally.estimated += group.photos }
                }
            }
        }
        return tally
    }

    /// `(400×266, "jpg")` for `400x266.jpg`; nil for a name that is no derivative's.
    static func derivative(_ name: String) -> (size: PixelSize, format: String)? {
        guard let dot = name.lastIndex(of: ".") else { return nil }
        let format = String(name[name.index(after: dot)...])
        guard formats.contains(format) else { return nil }
        let parts = name[..<dot].split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let width = Int(parts[0]), let height = Int(parts[1]), width > 0, height > 0
        else { return nil }
        return (PixelSize(width: width, height: height), format)
    }

    private static func formatSet(of variant: Variant) -> Set<String> {
        Set(["jpg"] + (variant.webp ? ["webp"] : []) + (variant.avif ? ["avif"] : []))
    }

    /// The sizes the build plans for a photo of `display` size with `variant`'s settings, memoised by size.
    private static func plan(
        _ display: PixelSize, _ variant: Variant, _ settings: ImageSettings, _ memo: inout [PixelSize: [PixelSize]]
    ) -> [PixelSize] {
        if let sizes = memo[display] { return sizes }
        var changed = settings
        changed.widths = variant.widths
        changed.gridSteps = variant.gridSteps
        let sizes = DerivativePlan(display: display, settings: changed, folder: "").all.map(\.size)
        memo[display] = sizes
        return sizes
    }
}

extension SiteInventory.Tally {
    fileprivate mutating func add(_ files: [SiteMeasure.File]) {
        self.files += files.count
        bytes += files.reduce(0) { $0 + $1.bytes }
    }
}
