import Foundation
import GalleryOutput
import GalleryStore

/// The last steps of a full build: the old site's files checked, the state saved, the staged site
/// swapped in (`Build.runSteps` runs them in order, each taking what the one before it made).
extension Build {
    /// `publish` (settled): before the state is saved, the earlier site's files this build does not
    /// keep must all be galleryssg's; any other is moved aside.
    func settle(_ complete: Complete, in ready: Ready) async throws -> Settled {
        let writer = ready.writer
        let moved = try await writer.settle(takeOver: options.takeOver, aside: ready.aside)
        if moved.foreign > 0 {
            progress(.warning(OutputError.movedAside(moved.foreign, from: writer.staging.path, to: ready.aside.path)))
        }
        if moved.unknown > 0 {
            progress(.warning(OutputError.movedFromEarlierVersion(moved.unknown, to: ready.aside.path)))
        }
        return Settled(pages: complete.pages)
    }

    /// `state` (saved): the manifest merged into the state (new, changed and removed photos and their
    /// blobs), the pending rows applied in the same transaction. The published photos' rows leave
    /// `imaged`: what the state needs of them is in the changes and the pending table now.
    func saveState(_ settled: Settled, _ imaged: inout Imaged, in ready: Ready, report: inout BuildReport)
        async throws -> Saved
    {
        let (state, pages) = (ready.state, settled.pages)
        let merge = try await StateMerge(
            priors: state.priors, window: options.readWindow, published: imaged.outcome.published,
            tally: imaged.outcome.tally, failed: imaged.outcome.failed, pages: pages, database: ready.database)
        var changes = merge.changes
        imaged.outcome.published = []
        report.photosRemoved = changes.counts.photosRemoved
        state.images.remove(merge.orphanImageKeys)
        state.pages.remove(merge.orphanPageKeys)
        changes.deletedBlobs = merge.orphanImageKeys + merge.orphanPageKeys
        // The blob records the photos and pages carried back are in the pending table
        // (`PhotoRows`, `PagePublisher`), applied with the rest in this transaction.
        (changes.originals, changes.placeholders) = state.learnt
        changes.pagesKey = pages.siteKey
        changes.learntFiles = state.shared.stamps
        changes.counts.pagesRendered = pages.rendered
        changes.counts.pagesReused = pages.reused
        for location in merge.orphanDownloads { imaged.fetcher.forget(location) }
        try await ready.database.saveChanges(changes)
        return Saved()
    }

    /// `publish`: the staged site swapped in for the old one, marked with what it was built from.
    func commit(_ saved: Saved, in ready: Ready) async throws {
        let record = SiteRecord(inputs: SiteFreshness.inputs(config), stateBuild: try ready.database.lastBuildID())
        try await ready.writer.commit(record: record, folderIndex: ready.renderer.folderIndexPage)
    }
}
