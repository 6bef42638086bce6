import Dispatch
import Foundation

/// Ctrl-C (SIGINT) as task cancellation, so an interrupted build stops at its next wait and cleans
/// up as after any failure (the previous site kept, the staging folder kept as the spare, the
/// state lock released) instead of dying where it stands.
///
/// SIGINT is ignored while the work runs and delivered to a Dispatch signal source instead, as
/// swift-service-lifecycle's `UnixSignalsSequence` does. A second Ctrl-C, for a build that takes
/// long to stop, restores the default action and raises the signal again: the process ends at
/// once, which is as safe as `kill -9` (the staging folder is then left for the next build).
enum Interrupt {
    /// The exit status of an interrupted command: 128 + SIGINT, as shells report it.
    static let exitStatus: Int32 = 128 + SIGINT

    /// Runs `work` in a task that the first Ctrl-C cancels.
    /// - Throws: What `work` throws (`CancellationError` when it stopped because it was cancelled).
    static func cancelling<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) async throws -> T {
        let task = Task { try await work() }
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            if task.isCancelled {  // the second Ctrl-C
                signal(SIGINT, SIG_DFL)
                raise(SIGINT)
                return
            }
            FileHandle.standardError.write(
                Data("interrupted: stopping the build (Ctrl-C again to stop at once)\n".utf8))
            task.cancel()
        }
        source.resume()
        defer {
            source.cancel()
            signal(SIGINT, SIG_DFL)
        }
        return try await withTaskCancellationHandler {
            try await task.value
        } onCancel: {
            task.cancel()
        }
    }
}
