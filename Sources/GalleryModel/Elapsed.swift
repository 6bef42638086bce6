import Foundation

extension ContinuousClock.Instant {
    /// The seconds from this instant until now, for the step and per-photo timings of the report.
    package var secondsElapsed: Double {
        let duration = ContinuousClock.now - self
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
