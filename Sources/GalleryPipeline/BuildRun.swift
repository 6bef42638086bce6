import Foundation
import GalleryConfig
import GalleryFetch
import GalleryOutput
import GalleryProviders
import GalleryRender
import GalleryStore

extension Build {
    /// One step of a build as a value: the name it is timed and reported under, when it runs, and
    /// what it does to the build's running record (`BuildRun`). `Build.steps` lists a full build's.
    package struct Step: Sendable {
        package let name: BuildStep
        private let applies: @Sendable (BuildRun) -> Bool
        private let body: @Sendable (BuildRun) async throws -> Void

        /// - Parameter applies: Whether the step has work in this build; a step without any is not
        ///   timed, so the report's `stepSeconds` names only steps that ran.
        init(
            _ name: BuildStep, if applies: @escaping @Sendable (BuildRun) -> Bool = { _ in true },
            _ body: @escaping @Sendable (BuildRun) async throws -> Void
        ) {
            self.name = name
            self.applies = applies
            self.body = body
        }

        /// Runs the step, adds its time to `run.timings`, and turns any error but a `BuildError` into
        /// one that names the step.
        func run(_ run: BuildRun) async throws {
            guard applies(run) else { return }
            let started = ContinuousClock.now
            defer { run.timings[name, default: 0] += started.secondsElapsed }
            do {
                try await body(run)
            } catch {
                throw BuildError.at(name, error)
            }
        }
    }
}

/// What a full build has made so far, handed from each step to the next (`Build.steps`).
///
/// Each value below is set by the step named beside it; the steps run in the list's order, so a
/// step reads only what an earlier one set. The record lives for one build, in one task.
package final class BuildRun {
    let build: Build
    let downloader: Downloader
    let started = ContinuousClock.now
    var report = BuildReport()
    var timings: [BuildStep: Double] = [:]
    /// Where a taken-over output's files go (`--force`).
    let aside: URL

    var lock: BuildLock?  // lock
    var theme: Theme!  // theme
    var assets: Assets!  // theme
    var renderer: SiteRenderer!  // theme
    var provider: (any PhotoProvider)!  // state (opened)
    var database: StateDatabase!  // state (opened)
    var manifest = Manifest(photos: [])  // manifest (its photos go to `listed` at images)
    var hidden = HiddenAlbums()  // manifest
    var listed: PhotoList!  // images (listed)
    var snapshot = StateSnapshot()  // state (last build)
    var writer: StagedWriter!  // output (staging); aborted if a later step fails
    var state: BuildState!  // state (caches)
    var fetcher: OriginalFetcher!  // images
    var outcome = PhotoPublisher.Outcome()  // images
    var plan: SitePlan!  // pages (planned); gone after the pages are published
    var sealTargets: [AlbumSealer.Target] = []  // pages (planned)
    var hiddenLinks: [HiddenLink] = []  // pages (planned); told at seal under a site password
    var pages: PagePublisher.Outcome!  // pages

    init(build: Build, downloader: Downloader) {
        self.build = build
        self.downloader = downloader
        aside = OutputFolder.asideFolder(for: build.config.output)
        report.output = build.config.output.path
        report.offline = build.options.offline
        report.forced = build.options.rebuild
    }

    var config: SiteConfig { build.config }
    var options: BuildOptions { build.options }
    func progress(_ event: BuildEvent) { build.progress(event) }

    /// The report once every step ran: failures redacted and counted, the timings.
    func finish() -> BuildReport {
        report.failures = build.redacted(report.failures)
        report.photosSkipped = report.failures.count
        report.stepSeconds = timings
        report.totalSeconds = started.secondsElapsed
        return report
    }
}
