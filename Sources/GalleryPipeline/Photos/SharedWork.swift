import Foundation
import GalleryModel

/// Runs each piece of keyed work once per build; later callers with the same key wait for it and
/// get its result.
///
/// A finished task is dropped and only its result is kept, for a while: a task holds its async
/// frames while it is referenced, and keeping 100,000 finished renders cost about 9 KB each.
///
/// The work runs in a task of its own, which is cancelled when the caller that started it is
/// cancelled (a cancelled build stops its renders). A caller that was waiting for cancelled work
/// without being cancelled itself runs the work again; cancelled work is not remembered as failed.
actor SharedWork<Value: Sendable> {
    private var running: [Digest: Task<Value, Error>] = [:]
    /// Results of finished work, the last `remembered` to 2 × `remembered` of them: only a caller
    /// that planned its work before the same work finished asks again (later ones find the files
    /// in the cache, and the rest of the result in the build state once the outcome of the work's
    /// caller is gathered), and at most `--jobs` plus the downloads in flight do. Should one come
    /// later still, the work is done again, which writes the same bytes.
    private var done: [Digest: Value] = [:]
    private var doneBefore: [Digest: Value] = [:]
    static var remembered: Int { 512 }
    private var failed: [Digest: Error] = [:]

    /// Runs `work` unless work with this key already ran or is running.
    /// - Returns: The work's result, and whether this caller ran it (false: another caller did, and
    ///   this one waited for it to finish, or came after it; it gets its error if it failed).
    func run(_ key: Digest, _ work: @escaping @Sendable () async throws -> Value) async throws -> (
        value: Value, ranHere: Bool
    ) {
        while true {
            if let value = done[key] ?? doneBefore[key] { return (value, false) }
            if let error = failed[key] { throw error }
            guard let task = running[key] else { break }
            do {
                return (try await task.value, false)
            } catch  where task.isCancelled && !Task.isCancelled {
                if running[key] == task { running[key] = nil }  // its caller was cancelled, this one was not
            }
        }
        let task = Task { try await work() }
        running[key] = task
        do {
            let value = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
            if running[key] == task { running[key] = nil }
            if done.count >= Self.remembered { (doneBefore, done) = (done, [:]) }
            done[key] = value
            return (value, true)
        } catch {
            if running[key] == task { running[key] = nil }
            if !task.isCancelled { failed[key] = error }
            throw error
        }
    }
}
