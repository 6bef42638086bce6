import Foundation
import GalleryProviders

/// How `Build` runs and times a named step, and reports a skipped photo.
extension Build {
    package func announce(_ failure: BuildReport.Failure) {
        let location = failure.location.map { " (\($0))" } ?? ""
        let status = failure.status.map { " [HTTP \($0)]" } ?? ""
        progress(.skipped("\(failure.id)\(location): \(failure.stage)\(status): \(failure.reason)"))
    }

    /// The manifest's entries that name no usable photo, as failures of the `manifest` step, each announced.
    package func manifestFailures(_ manifest: Manifest) -> [BuildReport.Failure] {
        let failures = manifest.issues.map {
            BuildReport.Failure(id: $0.item, location: $0.location, stage: .manifest, status: nil, reason: $0.reason)
        }
        failures.forEach(announce)
        return failures
    }

    package func step<T>(_ name: BuildStep, _ timings: inout [String: Double], _ body: () throws -> T) throws -> T {
        let started = ContinuousClock.now
        defer { timings[name.rawValue, default: 0] += started.secondsElapsed }
        do {
            return try body()
        } catch let error as BuildError {
            throw error
        } catch {
            throw BuildError(step: name, underlying: error)
        }
    }

    package func asyncStep<T>(_ name: BuildStep, _ timings: inout [String: Double], _ body: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { timings[name.rawValue, default: 0] += started.secondsElapsed }
        do {
            return try await body()
        } catch let error as BuildError {
            throw error
        } catch {
            throw BuildError(step: name, underlying: error)
        }
    }

    package func timed<T>(_ name: BuildStep, _ timings: inout [String: Double], _ body: () async -> T) async -> T {
        let started = ContinuousClock.now
        defer { timings[name.rawValue, default: 0] += started.secondsElapsed }
        return await body()
    }
}
