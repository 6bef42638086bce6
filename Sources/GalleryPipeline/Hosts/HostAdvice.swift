import GalleryConfig
import GalleryOutput

/// What to change so that a site fits its host, counted from the built files (`SiteInventory`):
/// what each change saves, the single changes that are enough, else the fewest that are together
/// (chosen greedily, counted together: a width dropped saves less once WebP is off), and what
/// the files over the host's size limit are, with the key that lowers or removes each.
package struct HostAdvice: Sendable {
    /// A change of one setting.
    package enum Change: Hashable, Sendable {
        case dropWidth(Int), noGridSteps, noWebP, noAVIF, noOriginals, noZips

        func apply(to variant: inout SiteInventory.Variant) {
            switch self {
            case .dropWidth(let width): variant.widths.removeAll { $0 == width }
            case .noGridSteps: variant.gridSteps = false
            case .noWebP: variant.webp = false
            case .noAVIF: variant.avif = false
            case .noOriginals: variant.originals = false
            case .noZips: variant.zips = false
            }
        }
    }

    /// What one change (or several) saves: files, and bytes (`estimated` when the change adds
    /// sizes the site does not have, counted at the bytes of the next wider one, or drops a width:
    /// the sizes made after it may then be resampled from another, in other bytes).
    package struct Saving: Sendable {
        package var changes: [Change]
        package var files: Int
        package var bytes: Int
        package var estimated: Bool
        /// The site's files and bytes after the changes.
        package var filesAfter: Int
        var bytesAfter: Int
    }

    /// What a file over the size limit is, and so which key lowers it.
    package enum LargeKind: Sendable, Equatable {
        case original, zip, clip, motion, derivative(format: String), other
    }

    package let widths: [Int]
    /// Every change, each alone, in the order they are listed (one may save nothing, or add files).
    package let savings: [Saving]
    /// The changes that alone make the site fit.
    package let enough: [Saving]
    /// When none alone is enough: the changes chosen together, and whether they are enough.
    package let together: Saving?
    package let togetherFits: Bool
    /// Files over the size limit, with what they are.
    package let largeFiles: [(file: HostFit.LargeFile, kind: LargeKind)]
    /// Photos whose files are not what the config plans: every change keeps them as they are.
    package let unplanned: Int
    /// For Cloudflare Pages on its Free plan: whether the paid plan's limits take the site.
    let paidPlanFits: Bool

    package init(_ measure: SiteMeasure, fit: HostFit, config: SiteConfig) {
        let inventory = SiteInventory(measure, settings: config.images)
        let current = inventory.current
        widths = current.widths
        unplanned = inventory.unplanned
        let large = fit.largeFiles.map { (file: $0, kind: Self.kind(of: $0.path)) }
        largeFiles = large
        var changes = current.widths.sorted(by: >).map(Change.dropWidth)
        if current.gridSteps { changes.append(.noGridSteps) }
        if current.webp { changes.append(.noWebP) }
        if current.avif { changes.append(.noAVIF) }
        if current.originals { changes.append(.noOriginals) }
        if current.zips { changes.append(.noZips) }

        let before = inventory.tally(current)
        func saving(_ chosen: [Change]) -> Saving {
            var variant = current
            for change in chosen { change.apply(to: &variant) }
            let after = inventory.tally(variant)
            return Saving(
                changes: chosen, files: before.files - after.files, bytes: before.bytes - after.bytes,
                estimated: after.estimated > 0 || variant.widths != current.widths,
                filesAfter: fit.files - before.files + after.files,
                bytesAfter: fit.totalBytes - before.bytes + after.bytes)
        }
        // What no change here helps: a folder over its limit, a file over the size limit that is no
        // original, zip, WebP or AVIF.
        let stuck = (fit.over.contains(.filesPerFolder) ? 1 : 0) + (large.contains { !Self.removable($0.kind) } ? 1 : 0)
        /// How far `saving` leaves the site from fitting: limits still over, then files and bytes too many.
        func problems(_ saving: Saving) -> [Int] {
            let files = max(0, saving.filesAfter - (fit.limits.files ?? .max))
            let bytes = max(0, saving.bytesAfter - (fit.limits.totalBytes ?? .max))
            let kept = large.contains { Self.removable($0.kind) && !Self.removes(saving.changes, $0.kind) }
            return [stuck + (files > 0 ? 1 : 0) + (bytes > 0 ? 1 : 0) + (kept ? 1 : 0), files, bytes]
        }
        // Every change, even one that saves nothing: a width the grid's own sizes replace says so.
        let singles = changes.map { saving([$0]) }
        savings = singles
        enough = singles.filter { problems($0)[0] == 0 }
        var chosen = saving([])
        if enough.isEmpty {
            while problems(chosen)[0] > stuck {
                let next = changes.filter { !chosen.changes.contains($0) }.map { saving(chosen.changes + [$0]) }
                guard let best = next.min(by: { problems($0).lexicographicallyPrecedes(problems($1)) }),
                    problems(best).lexicographicallyPrecedes(problems(chosen))
                else { break }
                chosen = best
            }
        }
        together = chosen.changes.isEmpty ? nil : chosen
        togetherFits = problems(chosen)[0] == 0
        let paid = HostChoice(host: .cloudflarePages, plan: .paid).limits
        paidPlanFits =
            fit.host == .cloudflarePages && fit.plan == .free && fit.files <= (paid.files ?? .max)
            && fit.largestBytes <= (paid.fileBytes ?? .max)
    }

    /// Whether a large file of `kind` is one a change of this list can remove.
    static func removable(_ kind: LargeKind) -> Bool {
        switch kind {
        case .original, .zip: true
        case .derivative(let format): format != "jpg"
        case .clip, .motion, .other: false
        }
    }

    /// Whether `changes` remove a large file of `kind`.
    static func removes(_ changes: [Change], _ kind: LargeKind) -> Bool {
        switch kind {
        case .original: changes.contains(.noOriginals)
        case .zip: changes.contains(.noZips)
        case .derivative("webp"): changes.contains(.noWebP)
        case .derivative("avif"): changes.contains(.noAVIF)
        default: false
        }
    }

    static func kind(of path: String) -> LargeKind {
        let name = SiteMeasure.name(of: path)
        if name.hasPrefix("original.") { return .original }
        if name.hasSuffix(".zip") { return .zip }
        if name == "video.mp4" { return .clip }
        if name == "motion.mp4" { return .motion }
        if let derivative = SiteInventory.derivative(name) { return .derivative(format: derivative.format) }
        return .other
    }
}
