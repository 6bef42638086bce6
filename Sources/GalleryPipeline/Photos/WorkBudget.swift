import Foundation
import NIOConcurrencyHelpers

/// Admits CPU-bound work while fewer than `jobs` run and their decoded pixels fit in the budget,
/// and runs each admitted job on a thread of its own.
///
/// This bounds both the cores used and the memory held by decoded bitmaps, whatever the number of
/// photos; a photo bigger than the whole budget waits until nothing else runs, then runs alone.
/// Jobs run on their own threads, not on Swift's cooperative pool: that pool has one thread per
/// core, so blocking it with pixel work would cap `--jobs` at the core count and stall the
/// downloads and page rendering that share it.
///
/// A task cancelled while it waits for room leaves the queue at once with `CancellationError`
/// (a cancelled build does not wait for photos it will never publish); the waiters behind it that
/// fit then are admitted. A job already running on its thread runs to its end.
package final class WorkBudget: Sendable {
    /// The most jobs and decoded pixels that were in flight at once.
    package struct Peaks: Sendable, Equatable {
        package var jobs = 0
        package var pixels = 0
    }

    private struct Waiter {
        var id: Int
        var pixels: Int
        var resume: CheckedContinuation<Void, Error>
    }

    /// What runs and what waits, kept under one lock. Continuations are only collected under it
    /// and resumed after it is released.
    private struct Books {
        let jobs: Int
        let pixels: Int
        var running = 0
        var used = 0
        var waiting: [Waiter] = []
        var nextWaiter = 0
        var peaks = Peaks()

        func fits(_ weight: Int) -> Bool {
            running == 0 || (running < jobs && used + weight <= pixels)
        }

        mutating func admit(_ weight: Int) {
            running += 1
            used += weight
            peaks.jobs = max(peaks.jobs, running)
            peaks.pixels = max(peaks.pixels, used)
        }

        /// Admits waiters in order while they fit, so a large photo is not starved by small ones;
        /// returns them to be resumed once the lock is released.
        mutating func admitWaiters() -> [CheckedContinuation<Void, Error>] {
            var admitted: [CheckedContinuation<Void, Error>] = []
            while let next = waiting.first, fits(next.pixels) {
                waiting.removeFirst()
                admit(next.pixels)
                admitted.append(next.resume)
            }
            return admitted
        }
    }

    private let books: NIOLockedValueBox<Books>

    package init(jobs: Int, pixels: Int) {
        books = NIOLockedValueBox(Books(jobs: max(1, jobs), pixels: max(1, pixels)))
    }

    package var peaks: Peaks { books.withLockedValue { $0.peaks } }

    /// Runs `body` on a thread of its own once the budget has room for `weight` pixels.
    /// - Throws: `CancellationError` when the task is cancelled before `body` starts; else what `body` throws.
    package func run<T: Sendable>(pixels weight: Int, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await acquire(weight)
        guard !Task.isCancelled else {
            release(weight)
            throw CancellationError()
        }
        let result: Result<T, Error> = await withCheckedContinuation { done in
            let thread = Thread { done.resume(returning: Result { try body() }) }
            thread.stackSize = 8 << 20  // as the main thread's: decoders and encoders use the stack freely
            thread.start()
        }
        release(weight)
        return try result.get()
    }

    private func acquire(_ weight: Int) async throws {
        try Task.checkCancellation()
        let queued = books.withLockedValue { books -> Int? in
            if books.waiting.isEmpty && books.fits(weight) {
                books.admit(weight)
                return nil
            }
            defer { books.nextWaiter += 1 }
            return books.nextWaiter
        }
        guard let id = queued else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (resume: CheckedContinuation<Void, Error>) in
                books.withLockedValue { $0.waiting.append(Waiter(id: id, pixels: weight, resume: resume)) }
                // Cancelled before it was queued: the handler found nothing to withdraw.
                if Task.isCancelled { withdraw(id) }
            }
        } onCancel: {
            withdraw(id)
        }
    }

    /// Takes a cancelled waiter out of the queue and resumes it with `CancellationError`; nothing
    /// when it was admitted already (its job then runs, or sees the cancellation, and releases).
    private func withdraw(_ id: Int) {
        let (cancelled, admitted) = books.withLockedValue {
            books -> (CheckedContinuation<Void, Error>?, [CheckedContinuation<Void, Error>]) in
            guard let index = books.waiting.firstIndex(where: { $0.id == id }) else { return (nil, []) }
            let waiter = books.waiting.remove(at: index)
            return (waiter.resume, books.admitWaiters())
        }
        cancelled?.resume(throwing: CancellationError())
        for waiter in admitted { waiter.resume() }
    }

    private func release(_ weight: Int) {
        let admitted = books.withLockedValue { books in
            books.running -= 1
            books.used -= weight
            return books.admitWaiters()
        }
        for waiter in admitted { waiter.resume() }
    }
}
