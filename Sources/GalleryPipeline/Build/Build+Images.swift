import Foundation
import GalleryFetch
import GalleryRender
import GalleryStore

/// The `images` step as a full build and an images-only build both run it.
extension Build {
    /// Publishes `photos` through `publisher` within `--jobs` and the pixel budget, writes what was
    /// learnt, and puts the outcome in the report: budget and peaks, downloads, warnings, counts.
    /// Each failure is announced and added to `report.failures`.
    /// - Parameter noneProcessed: The reason the build stops when there were photos and none was published.
    /// - Throws: `BuildError` at `images` when none was published; the error that stopped writing what
    ///   was learnt (the caller's step names it); `CancellationError` when the task was cancelled.
    func publishImages(
        _ photos: some PhotoWindows, with publisher: PhotoPublisher, state: BuildState, downloader: Downloader,
        report: inout BuildReport,
        noneProcessed: @autoclosure () -> String
    ) async throws -> PhotoPublisher.Outcome {
        let budget =
            config.images.maxPixelsInFlight
            ?? PixelBudget.automatic(jobs: options.jobs, availableBytes: PixelBudget.availableBytes())
        report.pixelBudget = budget
        let inFlight = options.jobs + 2 * config.network.connectionsPerHost
        // An images-only build renders no pages, and writes nothing in the state folder.
        let items = try ItemList.Builder(folder: options.imagesOnly == nil ? config.stateDirectory : nil)
        let outcome = try await publisher.publishAll(
            photos, jobs: options.jobs, inFlight: inFlight, pixelBudget: budget, items: items,
            progress: photoProgress)
        // Cancelled: the photos cut short are not failures to report, and nothing is published
        // (the batches of learnt facts already written are kept, as a killed build keeps them).
        try Task.checkCancellation()
        try state.check()
        if let failure = outcome.rowsFailure { throw failure }
        report.peakJobs = outcome.peaks.jobs
        report.peakPixelsInFlight = outcome.peaks.pixels
        report.downloads = await downloader.stats.snapshot()
        outcome.failures.forEach(announce)
        report.failures += outcome.failures
        report.warnings += outcome.warnings
        for warning in outcome.warnings {
            progress(.warning(warning.line))
        }
        report.photoSeconds = outcome.seconds
        if outcome.items.isEmpty && !photos.isEmpty {
            throw BuildError(step: .images, noneProcessed())
        }
        report.count(outcome)
        let clips = report.clipsPublished
        let motions = report.motionsPublished > 0 ? " (\(report.motionsPublished) with motion)" : ""
        progress(
            .step(
                "images: \(report.photosPublished - clips) photos\(motions)"
                    + (clips > 0 ? " and \(clips) \(clips == 1 ? "clip" : "clips")" : "") + ", "
                    + "\(report.derivatives) images "
                    + "(\(report.derivativesMade) made, \(report.derivativesReused) reused)"))
        return outcome
    }

    /// The report's failures with credentials taken out of their reasons and locations.
    package func redacted(_ failures: [BuildReport.Failure]) -> [BuildReport.Failure] {
        failures.map { failure in
            var redacted = failure
            redacted.reason = config.credentials.redact(failure.reason)
            redacted.location = failure.location.map(config.credentials.redact)
            return redacted
        }
    }
}
