import Foundation
import GalleryConfig

/// How often and how patiently a transient failure is retried.
///
/// Exponential backoff with "equal jitter" (half fixed, half random), as in AWS's architecture
/// blog "Exponential Backoff And Jitter", so parallel downloads that failed together do not retry
/// in lockstep. A server's `Retry-After` wins over the computed delay, up to `maxDelay`.
public struct RetryPolicy: Sendable {
    public var retries: Int
    public var baseDelay: Double
    public var maxDelay: Double

    public init(retries: Int, baseDelay: Double, maxDelay: Double = 30) {
        self.retries = retries
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
    }

    /// The policy the config's `network` settings ask for: every retrying client uses this one.
    public init(network: NetworkSettings) {
        self.init(retries: network.retries, baseDelay: network.retryBaseDelay)
    }

    /// The wait before attempt `attempt` (1 = the first retry).
    package func delay(beforeRetry attempt: Int, retryAfter: Double?) -> Double {
        if let retryAfter { return min(retryAfter, maxDelay) }
        let exponential = min(maxDelay, baseDelay * pow(2, Double(attempt - 1)))
        return exponential / 2 + Double.random(in: 0...(exponential / 2))
    }

    /// Runs `operation`, retrying transient `FetchError`s.
    /// - Returns: The operation's result and how many attempts it took.
    /// - Throws: The last error once retries are used up, or at once for a permanent error.
    package func run<T: Sendable>(_ operation: () async throws -> T) async throws -> T {
        var attempt = 0
        while true {
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
package actor HostLimiter {
    private let limit: Int
    private var active: [String: Int] = [:]
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `body` once a slot for `host` is free.
    package nonisolated func withSlot<T: Sendable>(for host: String, _ body: () async throws -> T) async throws -> T {
        await acquire(host)
        do {
            let result = try await body()
            await release(host)
            return result
        } catch {
            await release(host)
            throw error
        }
    }

    private func acquire(_ host: String) async {
        if active[host, default: 0] < limit {
            active[host, default: 0] += 1
            return
        }
        await withCheckedContinuation { waiting[host, default: []].append($0) }
    }

    private func release(_ host: String) {
        if var queue = waiting[host], !queue.isEmpty {
            let next = queue.removeFirst()
            waiting[host] = queue
            next.resume()   // the slot passes straight to the next waiter
        } else {
            active[host, default: 1] -= 1
        }
    }
}
