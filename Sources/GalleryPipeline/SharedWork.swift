import Foundation
import GalleryModel

/// Runs each piece of keyed work once per build; later callers with the same key wait for it.
///
/// A finished task is dropped and only its key is kept: a task holds its async frames and its
/// result while it is referenced, and keeping 100,000 finished renders cost about 9 KB each.
///
/// The work runs in a task of its own, which is cancelled when the caller that started it is
/// cancelled (a cancelled build stops its renders). A caller that was waiting for cancelled work
/// without being cancelled itself runs the work again; cancelled work is not remembered as failed.
package actor SharedWork<Value: Sendable> {
    private var running: [Digest: Task<Value, Error>] = [:]
    /// Keys of finished work, the last `remembered` to 2 × `remembered` of them: only a caller that
    /// planned its work before the same work finished asks again (files made since are found in
    /// the cache), and at most `--jobs` plus the downloads in flight do. Should one come later
    /// still, the work is done again, which writes the same bytes. (A set of 100,000 keys took
    /// 8 MB at a cold build's peak.)
    private var done: Set<Digest> = []
    private var doneBefore: Set<Digest> = []
    package static var remembered: Int { 4096 }
    private var failed: [Digest: Error] = [:]

    /// Runs `work` unless work with this key already ran or is running.
    /// - Parameter byAnother: What a caller gets when another caller ran the work (it waits for it to
    ///   finish first, and gets its error if it failed).
    /// - Returns: The work's result for the caller that ran it.
    package func run(_ key: Digest, byAnother: Value, _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        while true {
            if done.contains(key) || doneBefore.contains(key) { return byAnother }
            if let error = failed[key] { throw error }
            guard let task = running[key] else { break }
            do {
                _ = try await task.value
                return byAnother
            } catch where task.isCancelled && !Task.isCancelled {
                if running[key] == task { running[key] = nil }   // its caller was cancelled, this one was not
            }
        }
        let task = Task { try await work() }
        running[key] = task
        do {
            let value = try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() }
            if running[key] == task { running[key] = nil }
            if done.count >= Self.remembered { (doneBefore, done) = (done, []) }
            done.insert(key)
            return value
        } catch {
            if running[key] == task { running[key] = nil }
            if !task.isCancelled { failed[key] = error }
            throw error
        }
    }
}
