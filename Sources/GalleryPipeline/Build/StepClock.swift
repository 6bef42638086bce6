import Foundation
import GalleryModel

/// How a build runs each of its steps, the full build's and the images-only build's alike: the step
/// is timed under its name (the report's `stepSeconds`, several runs of one name added up) and its
/// error becomes a `BuildError` that names it. A step with no work in a build is not run through
/// the clock, so the report times only steps that ran.
struct StepClock {
    /// When the build began (the report's `totalSeconds`).
    let started = ContinuousClock.now
    /// Seconds by step, for the steps that ran.
    private(set) var seconds: [BuildStep: Double] = [:]

    /// What `body` returns, its time added to `name`'s.
    /// - Throws: The body's error as `BuildError.at(name, error)`: a `BuildError` as it is, any
    ///   other wrapped in one that names `name`.
    mutating func step<T>(_ name: BuildStep, _ body: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { seconds[name, default: 0] += started.secondsElapsed }
        do {
            return try await body()
        } catch {
            throw BuildError.at(name, error)
        }
    }
}

extension Build {
    /// The report once every step ran: failures redacted and counted, the timings.
    func finished(_ report: BuildReport, _ clock: StepClock) -> BuildReport {
        var report = report
        report.failures = redacted(report.failures)
        report.photosSkipped = report.failures.count
        report.stepSeconds = clock.seconds
        report.totalSeconds = clock.started.secondsElapsed
        return report
    }
}
