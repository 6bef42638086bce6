import Foundation
import GalleryStore

/// What a failed build does about its state database: a damaged one is set aside and the build
/// runs once more from a fresh state (`Build.run`); a full disk under it is said in words.
extension Build {
    /// Thrown by a build that set a damaged state database aside: the build runs again.
    struct StateSetAside: Error {}

    /// What a build that failed with `error` throws: `StateSetAside` when `error` is the state
    /// database's damage and nothing would be lost (`recover`: not the second try); a `BuildError`
    /// that says what to do when the database holds `--offline`'s manifest, or when SQLite found
    /// the disk full; else `error` itself.
    /// - Parameters:
    ///   - source: The provider's summary, once the `state` step made it (the report's `source`).
    ///   - database: The state database, once opened; closed before a damaged file is set aside.
    /// - Throws: `StoreError` when the damaged file cannot be moved aside.
    func stopping(_ error: any Error, source: String, database: StateDatabase?, recover: Bool) throws -> any Error {
        let cause = Self.cause(of: error)
        let file = StateDatabase.file(in: config.stateDirectory)
        let step = (error as? BuildError)?.step ?? .state
        if StateDatabase.isFull(cause) {
            return BuildError(step: step, underlying: StoreError.writing(file.path, POSIXError(.ENOSPC)))
        }
        guard StateDatabase.isDamage(cause), !Task.isCancelled else { return error }
        if options.offline && sourceIsRemote {
            return BuildError(
                step: step,
                underlying: StoreError.damagedOffline(
                    file.path, reason: StateDatabase.reason(cause), source: source.isEmpty ? "the source" : source))
        }
        guard recover else { return error }
        database?.close()
        progress(.warning(try StateDatabase.setAside(file, damage: cause)))
        return StateSetAside()
    }

    /// The error under a step's `BuildError` and a photo's failure.
    static func cause(of error: any Error) -> any Error {
        if let build = error as? BuildError, let underlying = build.underlying { return cause(of: underlying) }
        if let photo = error as? PhotoPublisher.PhotoFailure { return cause(of: photo.error) }
        return error
    }
}
