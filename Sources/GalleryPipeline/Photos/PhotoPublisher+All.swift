import Foundation
import GalleryFetch
import GalleryImaging
import GalleryModel
import GalleryRender
import GalleryStore

/// Many photos at once: the per-photo results, run in parallel within the budgets and gathered in
/// manifest order.
extension PhotoPublisher {
    /// How a published photo compares with the last build.
    package enum Status: Sendable { case new, changed, unchanged }

    /// What the state learns of one published photo; its `GalleryItem` is kept apart, in `Outcome.items`,
    /// and of this only a `PublishedRow` is kept once its row went where it belongs (`PhotoRows`).
    package struct Published: Sendable {
        package var row: PhotoState
        /// Whether the photo's row must be written (it is new or changed); an unchanged photo that
        /// moved only has its position written (`PhotoRows`).
        var writeRow: Bool
        package var status: Status
        package var made: Int
        package var reused: Int
        package var bytes: Int
        package var seconds: [BuildStep: Double]
        /// What the decoder forgave in the original (see `Placeholder.warnings`).
        package var warnings: [String] = []
        /// The manifest entry as the state stores it (`Photo.canonicalJSON`), for rows to write.
        package var metadata: String = ""
        /// Facts, placeholder and blob records the state lacks, learnt while publishing the photo.
        package var learnt = Learnt()

        package init(
            row: PhotoState, writeRow: Bool, status: Status, made: Int, reused: Int, bytes: Int,
            seconds: [BuildStep: Double],
            warnings: [String] = [], metadata: String = "", learnt: Learnt = Learnt()
        ) {
            self.row = row
            self.writeRow = writeRow
            self.status = status
            self.made = made
            self.reused = reused
            self.bytes = bytes
            self.seconds = seconds
            self.warnings = warnings
            self.metadata = metadata
            self.learnt = learnt
        }
    }

    /// What the state step and the page key need of a published photo once its row is in the state's
    /// pending table or, unchanged, in the snapshot (`PhotoRows.forEach` reads them back in order).
    package struct PublishedRow: Sendable {
        /// Its row in the last build's state (the `rowid`, `StateDatabase.PriorRow`); -1 for a new photo.
        package var prior: Int64
        package var position: Int32
        /// Whether its row was written to the pending table; else it is the state's row `prior`.
        package var written: Bool

        package init(prior: Int64, position: Int32, written: Bool) {
            self.prior = prior
            self.position = position
            self.written = written
        }
    }

    /// The published photos' counts, summed as they finish.
    package struct Tally: Sendable {
        package var new = 0
        package var changed = 0
        package var unchanged = 0
        package var made = 0
        package var reused = 0
        package var bytes = 0

        package mutating func add(_ photo: Published) {
            switch photo.status {
            case .new: new += 1
            case .changed: changed += 1
            case .unchanged: unchanged += 1
            }
            made += photo.made
            reused += photo.reused
            bytes += photo.bytes
        }
    }

    /// A photo that could not be published, where the state step needs it: its row is kept.
    package struct Failed: Sendable {
        package var id: String
        /// `ImageLocation.description` of its original.
        package var location: String
        package var position: Int
    }

    package struct Outcome {
        /// The published photos, in manifest order (kept in a file, see `ItemList`), and what the
        /// state step keeps of each (same order).
        package var items = ItemList.empty
        package var published: [PublishedRow] = []
        package var tally = Tally()
        /// Files each published photo has in the site: its derivatives (JPEG, WebP and AVIF), a published original
        /// (or a clip's web file) and a Live Photo's motion.
        package var derivatives = 0
        /// Of the published items: the clips, and the photos with a motion (Live Photos, motion photos).
        package var clips = 0
        package var motions = 0
        /// The published photos' rows, in manifest order, when the state has no database (an
        /// images-only build); else they are in the state's pending table or snapshot.
        package var rows: [PhotoState] = []
        /// The first failure to write rows to the pending table (`PhotoRows.failure`).
        var rowsFailure: (any Error)?
        package var failures: [BuildReport.Failure] = []
        /// Photos published despite a problem the decoder forgave, in manifest order.
        package var warnings: [BuildReport.Failure] = []
        /// Ids of photos that failed; their previous state is kept.
        package var failed: [Failed] = []
        package var seconds: [BuildStep: Double] = [:]
        /// The most jobs and decoded pixels in flight at once.
        package var peaks = WorkBudget.Peaks()

        /// Moves the items out, so the page plan can order them in place.
        mutating func takeItems() -> ItemList {
            defer { items = .empty }
            return items
        }
    }

    /// Publishes every photo; returns in manifest order.
    /// - Parameters:
    ///   - jobs: Photos decoded and encoded at once (CPU-bound work).
    ///   - inFlight: Photos in progress at once, so downloads overlap with imaging. Bounds the
    ///     originals held in memory. When the first window's photos are all local files, `jobs + 1`.
    ///   - pixelBudget: Decoded pixels allowed in memory at once across all jobs; a single photo larger
    ///     than the budget runs alone.
    ///   - items: Where the published photos' items are written as they arrive.
    ///   - progress: Called after each photo with the number done and the total.
    /// - Throws: `SpillFileError` when the items could not be written, or `photos` not read back from
    ///   their file; the first failure of a photo that stops the build (`stopsBuild`).
    func publishAll(
        _ photos: some PhotoWindows, jobs: Int, inFlight: Int, pixelBudget: Int, items: consuming ItemList.Builder,
        progress: @Sendable (Int, Int) -> Void
    ) async throws -> Outcome {
        // Results are appended as they arrive and put in manifest order in place at the end, so
        // 100,000 photos' rows are never held whole: they stream into the state (`PhotoRows`), and
        // the items go to a file at once (`ItemList`).
        var rows: [PublishedRow] = []
        var sink = PhotoRows(priors: state.priors, database: state.database)
        var tally = Tally()
        var derivatives = 0
        var clips = 0
        var motions = 0
        var warnings: [(index: Int, reasons: [String])] = []
        rows.reserveCapacity(photos.count)
        var failures: [Int: PhotoFailure] = [:]
        let cpu = WorkBudget(jobs: jobs, pixels: pixelBudget)
        var done = 0
        var seconds: [BuildStep: Double] = [:]
        var unread: (any Error)?
        var stop: (any Error)?  // a failure that stops the build (`stopsBuild`)
        await withTaskGroup(of: (Int, Result<(GalleryItem, Published), PhotoFailure>).self) { group in
            var next = 0
            var window: [Photo] = []
            func startNext() async {
                // A cancelled build starts no more photos; those in progress end with its cancellation.
                guard next < photos.count, !Task.isCancelled, unread == nil, stop == nil else { return }
                if next % Self.prefetchWindow == 0 {
                    // The next window's photos, and their header facts, read in one go rather than one by one.
                    // Photos that cannot be read back start no more work; those in progress end first.
                    do { window = try photos.photos(in: next..<min(next + Self.prefetchWindow, photos.count)) } catch {
                        unread = error
                        return
                    }
                    await state.prefetchPriors(window.map(\.id))
                    await state.prefetchFacts(window.compactMap { state.prior($0.id)?.contentHash })
                }
                let index = next
                let photo = window[next % Self.prefetchWindow]
                next += 1
                group.addTask { (index, await publish(photo, position: index, cpu: cpu)) }
            }
            await startNext()  // reads the first window
            // Photos started ahead of the jobs overlap their downloads with imaging. A local original
            // needs no head start, and each one waiting is its whole file in memory (8 MB for a
            // 24 MP JPEG, 28 of them at -j 16), so a library on disk starts one ahead.
            let ahead = window.contains { $0.image.filePath == nil } ? max(jobs, inFlight) : jobs + 1
            for _ in 0..<max(0, min(ahead, photos.count) - 1) { await startNext() }
            for await (index, result) in group {
                // Per-photo timings are summed as they arrive, so 100,000 photos do not keep 100,000 dictionaries.
                switch result {
                case .success(let (item, published)):
                    for (name, value) in published.seconds { seconds[name, default: 0] += value }
                    derivatives += item.plan.all.count * (1 + (item.plan.webp ? 1 : 0) + (item.plan.avif ? 1 : 0))
                    // The original or a clip's web file, beside them.
                    if case .published = item.original { derivatives += 1 }
                    if item.motionPath != nil { derivatives += 1 }  // a Live Photo's motion
                    if item.video != nil { clips += 1 }
                    if item.hasMotion { motions += 1 }
                    items.append(item)
                    // What the photo learnt is merged here, by this one task: its facts and placeholder
                    // are at hand for the photos after it, and its blob records go with its row.
                    let learntFull = state.learn(published.learnt)
                    rows.append(sink.add(published, position: index))
                    state.images.recorded(published.learnt.blobs)
                    if learntFull { await state.flush() }
                    if sink.isFull { await sink.flush() }
                    tally.add(published)
                    if !published.warnings.isEmpty { warnings.append((index, published.warnings)) }
                case .failure(let failure) where Self.stopsBuild(failure.error):
                    // The first such failure is the build's; the photos in progress are cancelled.
                    if stop == nil { stop = failure.error }
                    group.cancelAll()
                case .failure(let failure):
                    failures[index] = failure
                }
                done += 1
                progress(done, photos.count)
                await startNext()
            }
        }
        if let stop { throw stop }
        await sink.flush()
        await state.flush()
        if let unread { throw unread }
        var outcome = Outcome()
        outcome.seconds = seconds
        outcome.peaks = cpu.peaks
        outcome.derivatives = derivatives
        outcome.clips = clips
        outcome.motions = motions
        let order = rows.indices.sorted { rows[$0].position < rows[$1].position }
        items.permute(by: order)
        rows.permute(by: order)
        outcome.items = try items.finish()
        outcome.published = rows
        outcome.tally = tally
        outcome.rows = sink.kept.sorted { $0.position < $1.position }
        outcome.rowsFailure = sink.failure
        for (index, reasons) in warnings.sorted(by: { $0.index < $1.index }) {
            let photo = try photos.photo(at: index)
            for warning in reasons {
                outcome.warnings.append(
                    BuildReport.Failure(
                        id: photo.id, location: photo.image.description,
                        stage: .imaging, status: nil, reason: warning))
            }
        }
        for (index, failure) in failures.sorted(by: { $0.key < $1.key }) {
            let photo = try photos.photo(at: index)
            let fetch = failure.error as? FetchError
            outcome.failures.append(
                BuildReport.Failure(
                    id: photo.id, location: photo.image.description, stage: failure.stage,
                    status: fetch?.status, reason: fetch?.reason ?? "\(failure.error)",
                    firstBytes: (failure.error as? ImagingError)?.firstBytes,
                    toolOutput: (failure.error as? ImagingError)?.toolOutput))
            outcome.failed.append(Failed(id: photo.id, location: photo.image.description, position: index))
        }
        return outcome
    }

    /// Photos whose header facts are read from the state at once (`BuildState.prefetchFacts`): far
    /// fewer than `BuildState.recentFacts`, so a window's facts are still at hand when its photos
    /// are planned, with up to `inFlight` photos of the previous window still in progress.
    static let prefetchWindow = 256

    struct PhotoFailure: Error {
        var stage: BuildStep
        var error: Error
    }

    /// The original changed although its size and time (or its URL) did not; planned again from its bytes.
    struct StaleOriginal: Error {}

    private func publish(_ photo: Photo, position: Int, cpu: WorkBudget) async -> Result<
        (GalleryItem, Published), PhotoFailure
    > {
        do {
            return .success(try await attempt(photo, position: position, cpu: cpu, trustPrior: true))
        } catch let failure as PhotoFailure where failure.error is StaleOriginal {
            do {
                return .success(try await attempt(photo, position: position, cpu: cpu, trustPrior: false))
            } catch let failure as PhotoFailure {
                return .failure(failure)
            } catch {
                return .failure(PhotoFailure(stage: .imaging, error: error))
            }
        } catch let failure as PhotoFailure {
            return .failure(failure)
        } catch {
            return .failure(PhotoFailure(stage: .imaging, error: error))
        }
    }
}
