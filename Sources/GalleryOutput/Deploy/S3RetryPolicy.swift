import AsyncHTTPClient
import Foundation
import NIOConcurrencyHelpers
import NIOCore

/// How a deploy retries S3 requests: AWS's "standard" retry mode, as its SDKs do by default.
///
/// - Which failures: throttling (503 `SlowDown`, 429), 500, 502, 504, the S3 codes `InternalError`
///   and `RequestTimeout`, a reset or closed connection, a reply cut short, and a timeout
///   (`S3RetryPolicy.classify`). Anything else (403, 404, a refused signature) fails at once.
/// - How long to wait: exponential backoff with full jitter, a random delay between 0 and
///   `min(maxBackoff, baseDelay × 2^(retry − 1))` (AWS's architecture blog "Exponential Backoff And
///   Jitter"), so uploads that failed together do not come back together.
/// - How often: at most `maxAttempts` per request, and no more than a deploy's `RetryBudget` allows,
///   a token bucket that a store which keeps failing drains.
package struct S3RetryPolicy: Sendable, Equatable {
    /// Attempts per request, the first included.
    package var maxAttempts: Int
    /// The first retry's longest wait, in seconds; it doubles with every retry.
    package var baseDelay: Double
    /// The longest wait, in seconds.
    package var maxBackoff: Double
    /// The retry budget's tokens when a deploy starts (`RetryBudget`).
    package var budget: Int
    /// Tokens a retry takes: after a timeout, and after any other retryable failure.
    package var timeoutCost = 10
    package var retryCost = 5
    /// Tokens a request that succeeds at its first attempt puts back.
    var successRefund = 1

    package init(maxAttempts: Int, baseDelay: Double, maxBackoff: Double, budget: Int = 500) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxBackoff = maxBackoff
        self.budget = budget
    }

    /// AWS standard mode's backoff (100 ms base, 20 s cap) and token bucket (500; 5 a retry, 10
    /// after a timeout). Attempts are 8 rather than AWS's 3: a deploy sends hundreds of objects, and
    /// at one failure in five, 3 attempts leave about one object in 125 failed.
    package static let standard = S3RetryPolicy(maxAttempts: 8, baseDelay: 0.1, maxBackoff: 20)

    /// What kind of failure an attempt ended in, which decides whether it is retried and what it costs.
    package enum Failure: Sendable, Equatable {
        /// The store asked us to slow down (503 `SlowDown`, 429): retried, and fewer requests run at once.
        case throttle
        /// The request never got a whole answer in time: retried at a higher cost.
        case timeout
        /// A server error or a broken connection: retried.
        case transient
        /// Retrying cannot help: fails at once.
        case permanent
    }

    /// The longest wait before retry `retry` (1 = the first retry).
    package func ceiling(beforeRetry retry: Int) -> Double {
        min(maxBackoff, baseDelay * pow(2, Double(max(0, retry - 1))))
    }

    /// The wait before retry `retry`: `unit` (random, 0 ..< 1) of the ceiling; a server's
    /// `Retry-After` lengthens it, up to `maxBackoff`.
    package func delay(beforeRetry retry: Int, unit: Double, retryAfter: Double? = nil) -> Double {
        max(unit * ceiling(beforeRetry: retry), min(retryAfter ?? 0, maxBackoff))
    }

    /// The kind of an answer with this status and S3 error code.
    package static func classify(status: Int, code: String?) -> Failure {
        let throttles: Set = [
            "SlowDown", "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottled",
            "RequestThrottledException", "TooManyRequestsException", "RequestLimitExceeded", "BandwidthLimitExceeded",
            "PriorRequestNotComplete"
        ]
        if let code, throttles.contains(code) { return .throttle }
        if status == 429 || status == 503 { return .throttle }
        if let code, ["InternalError", "RequestTimeout", "RequestTimeoutException"].contains(code) { return .transient }
        return [500, 502, 504].contains(status) ? .transient : .permanent
    }

    /// The kind of a request that got no answer: a timeout, a broken connection or reply (retried),
    /// or a request that cannot be made at all (a bad address, a cancelled task).
    package static func classify(transport error: Error) -> Failure {
        if error is CancellationError { return .permanent }
        if let client = error as? HTTPClientError {
            let timeouts: [HTTPClientError] = [
                .readTimeout, .writeTimeout, .deadlineExceeded, .connectTimeout, .tlsHandshakeTimeout
            ]
            let unsendable: [HTTPClientError] = [
                .invalidURL, .emptyHost, .emptyScheme, .missingSocketPath, .alreadyShutdown, .cancelled
            ]
            return timeouts.contains(client) ? .timeout : unsendable.contains(client) ? .permanent : .transient
        }
        if let channel = error as? ChannelError, case .connectTimeout = channel { return .timeout }
        return .transient
    }
}

/// A deploy's retry budget: AWS standard mode's token bucket, shared by every request of one target.
///
/// A retry takes tokens (`S3RetryPolicy.retryCost`, or `timeoutCost` after a timeout); a request
/// that succeeds gives back what its last retry took, or `successRefund` when it needed none, up
/// to the starting budget. When the bucket cannot pay for a retry, the failure stands: a store
/// that fails request after request stops the deploy in seconds instead of minutes of retrying.
package final class RetryBudget: Sendable {
    private struct State {
        var tokens: Int
        var retries = 0
        var throttles = 0
    }

    private let policy: S3RetryPolicy
    private let state: NIOLockedValueBox<State>

    package init(_ policy: S3RetryPolicy) {
        self.policy = policy
        state = NIOLockedValueBox(State(tokens: policy.budget))
    }

    /// Takes the tokens a retry after `failure` costs and counts the retry.
    /// - Returns: The tokens taken, or nil when the budget cannot pay (the failure then stands).
    package func withdraw(after failure: S3RetryPolicy.Failure) -> Int? {
        let cost = failure == .timeout ? policy.timeoutCost : policy.retryCost
        return state.withLockedValue { state in
            if failure == .throttle { state.throttles += 1 }
            guard state.tokens >= cost else { return nil }
            state.tokens -= cost
            state.retries += 1
            return cost
        }
    }

    /// A request succeeded; `lastCost` is what its last retry took (nil when it needed none).
    package func succeeded(lastCost: Int?) {
        state.withLockedValue { state in
            state.tokens = min(policy.budget, state.tokens + (lastCost ?? policy.successRefund))
        }
    }

    /// Tokens left.
    package var tokens: Int { state.withLockedValue { $0.tokens } }
    /// Retries paid for so far.
    package var retries: Int { state.withLockedValue { $0.retries } }
    /// Throttling answers (503 `SlowDown`, 429) met so far, retried or not.
    package var throttles: Int { state.withLockedValue { $0.throttles } }
}
