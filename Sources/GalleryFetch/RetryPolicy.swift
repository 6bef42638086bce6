import Foundation
import GalleryConfig
import NIOConcurrencyHelpers

/// How often and how patiently a transient failure is retried.
///
/// Exponential backoff with "equal jitter" (half fixed, half random), as in AWS's architecture
/// blog "Exponential Backoff And Jitter", so parallel downloads that failed together do not retry
/// in lockstep. A server's `Retry-After` wins over the computed delay, up to `maxDelay`.
package struct RetryPolicy: Sendable {
    package var retries: Int
    package var baseDelay: Double
    package var maxDelay: Double

    package init(retries: Int, baseDelay: Double, maxDelay: Double = 30) {
        self.retries = retries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The policy the config's `network` settings ask for: every retrying client uses this one.
    package init(network: NetworkSettings) {
        self.init(retries: network.retries, baseDelay: network.retryBaseDelay)
    }

    /// The wait before attempt `attempt` (1 = the first retry).
    package func delay(beforeRetry attempt: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return min(retryAfter, maxDelay) }
        let exponential = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        return exponential / 2 + Double.random(in: 0...(exponential / 2))
    }

    /// Runs `operation`, retrying transient `FetchError`s.
    ///
    /// A cancelled task starts no attempt, and its backoff ends at once (`Task.sleep` throws).
    /// - Returns: The operation's result and how many attempts it took.
    /// - Throws: The last error once retries are used up, at once for a permanent error, or
    ///   `CancellationError` when the task is cancelled.
    package func run<T: Sendable>(_ operation: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
            try Task.checkCancellation()
            do {
                return try await operation()
            } catch let error as FetchError where error.kind == .transient && attempt < retries {
                attempt += 1
                let wait = delay(beforeRetry: attempt, retryAfter: error.retryAfter)
                try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            }
        }
    }
}

/// Limits how many requests run at once against each host.
///
/// A task cancelled while it waits for a slot leaves the queue at once with `CancellationError`.
package final class HostLimiter: Sendable {
    private struct Waiter {
        var id: Int
        var resume: CheckedContinuation<Void, Error>
    }

    private struct Slots {
        var active: [String: Int] = [:]
        var waiting: [String: [Waiter]] = [:]
        var nextWaiter = 0
    }

    private let limit: Int
    private let slots = NIOLockedValueBox(Slots())

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once a slot for `host` is free.
    /// - Throws: `CancellationError` when the task is cancelled while it waits; else what `body` throws.
    package func withSlot<T: Sendable>(for host: String, _ body: () async throws -> T) async throws -> T {
        try await acquire(host)
        do {
            let result = try await body()
            release(host)
            return result
        } catch {
            release(host)
            throw error
        }
    }

    private func acquire(_ host: String) async throws {
        try Task.checkCancellation()
        let queued = slots.withLockedValue { slots -> Int? in
            if slots.active[host, default: 0] < limit {
                slots.active[host, default: 0] += 1
                return nil
            }
            defer { slots.nextWaiter += 1 }
            return slots.nextWaiter
        }
        guard let id = queued else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (resume: CheckedContinuation<Void, Error>) in
                slots.withLockedValue { $0.waiting[host, default: []].append(Waiter(id: id, resume: resume)) }
                if Task.isCancelled { withdraw(id, host: host) }  // cancelled before it was queued
            }
        } onCancel: {
            withdraw(id, host: host)
        }
    }

    /// Takes a cancelled waiter out of the queue and resumes it with `CancellationError`; nothing
    /// when it was given a slot already (it then releases the slot as usual).
    private func withdraw(_ id: Int, host: String) {
        let cancelled = slots.withLockedValue { slots -> CheckedContinuation<Void, Error>? in
            guard let index = slots.waiting[host]?.firstIndex(where: { $0.id == id }) else { return nil }
            return slots.waiting[host]?.remove(at: index).resume
        }
        cancelled?.resume(throwing: CancellationError())
    }

    private func release(_ host: String) {
        let next = slots.withLockedValue { slots -> CheckedContinuation<Void, Error>? in
            if var queue = slots.waiting[host], !queue.isEmpty {
                let next = queue.removeFirst()
                slots.waiting[host] = queue.isEmpty ? nil : queue
                return next.resume  // the slot passes straight to the next waiter
            }
            slots.active[host, default: 1] -= 1
            return nil
        }
        next?.resume()
    }
}
