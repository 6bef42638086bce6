import AsyncHTTPClient
import Foundation
import GalleryOutput
import NIOCore
import NIOHTTP1
import Testing

/// The deploy's retry rules on their own: backoff with full jitter, which failures are retried, the
/// retry budget, and the concurrency that halves on throttling.
struct S3RetryPolicyTests {
    @Test func backoffDoublesFromTheBaseUpToTheCap() {
        let policy = S3RetryPolicy.standard
        #expect(policy.maxAttempts == 8 && policy.baseDelay == 0.1 && policy.maxBackoff == 20 && policy.budget == 500)
        let ceilings = (1...10).map { policy.ceiling(beforeRetry: $0) }
        #expect(ceilings == [0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 6.4, 12.8, 20, 20])
        // The random share of the ceiling, from nothing to almost all of it.
        #expect(policy.delay(beforeRetry: 4, unit: 0) == 0)
        #expect(policy.delay(beforeRetry: 4, unit: 0.5) == 0.4)
        #expect(policy.delay(beforeRetry: 30, unit: 0.999) == 0.999 * 20)
        // A server's Retry-After lengthens the wait, never beyond the cap.
        #expect(policy.delay(beforeRetry: 1, unit: 0.5, retryAfter: 3) == 3)
        #expect(policy.delay(beforeRetry: 1, unit: 0.5, retryAfter: 300) == 20)
        #expect(policy.delay(beforeRetry: 9, unit: 0.5, retryAfter: 1) == 10)
    }

    @Test func jitterIsFullNotHalf() {
        // Full jitter draws from the whole range: a tenth of the waits fall under a tenth of the ceiling
        // (equal jitter, the downloads' rule, never goes under half of it).
        let policy = S3RetryPolicy.standard
        let waits = (0..<2000).map { _ in
            policy.delay(beforeRetry: 3, unit: Double.random(in: 0..<1))
        }
        #expect(waits.allSatisfy { $0 >= 0 && $0 < 0.4 })
        let low = waits.filter { $0 < 0.04 }.count
        let high = waits.filter { $0 >= 0.36 }.count
        #expect((100...300).contains(low) && (100...300).contains(high), "\(low) and \(high) of 2000")
    }

    @Test func answersAreRetriedByStatusAndS3Code() {
        let cases: [(Int, String?, S3RetryPolicy.Failure)] = [
            (503, "SlowDown", .throttle), (503, nil, .throttle), (429, nil, .throttle), (400, "SlowDown", .throttle),
            (400, "Throttling", .throttle), (500, "InternalError", .transient), (500, nil, .transient),
            (502, nil, .transient), (504, nil, .transient), (400, "RequestTimeout", .transient),
            (200, "InternalError", .transient), (403, "AccessDenied", .permanent),
            (403, "SignatureDoesNotMatch", .permanent), (403, "InvalidAccessKeyId", .permanent), (403, nil, .permanent),
            (404, "NoSuchBucket", .permanent), (404, "NoSuchKey", .permanent), (400, "BadDigest", .permanent),
            (501, "NotImplemented", .permanent), (301, "PermanentRedirect", .permanent)
        ]
        for (status, code, expected) in cases {
            #expect(S3RetryPolicy.classify(status: status, code: code) == expected, "\(status) \(code ?? "-")")
        }
    }

    @Test func brokenConnectionsAndTimeoutsAreRetriedAndBadRequestsAreNot() {
        let cases: [(Error, S3RetryPolicy.Failure)] = [
            (HTTPClientError.readTimeout, .timeout), (HTTPClientError.deadlineExceeded, .timeout),
            (HTTPClientError.connectTimeout, .timeout), (ChannelError.connectTimeout(.seconds(1)), .timeout),
            (HTTPClientError.remoteConnectionClosed, .transient), (HTTPParserError.invalidEOFState, .transient),
            (IOError(errnoCode: ECONNRESET, reason: "read"), .transient), (ChannelError.ioOnClosedChannel, .transient),
            (ChannelError.eof, .transient), (HTTPClientError.invalidURL, .permanent),
            (HTTPClientError.cancelled, .permanent), (CancellationError(), .permanent)
        ]
        for (error, expected) in cases {
            #expect(S3RetryPolicy.classify(transport: error) == expected, "\(error)")
        }
    }

    @Test func theBudgetPaysForRetriesAndSuccessesRefillIt() {
        var policy = S3RetryPolicy(maxAttempts: 3, baseDelay: 0.1, maxBackoff: 1, budget: 12)
        policy.retryCost = 5
        policy.timeoutCost = 10
        let budget = RetryBudget(policy)
        #expect(budget.withdraw(after: .throttle) == 5 && budget.tokens == 7)
        #expect(budget.withdraw(after: .timeout) == nil, "a timeout costs 10; 7 are left")
        #expect(budget.withdraw(after: .transient) == 5 && budget.tokens == 2)
        #expect(budget.withdraw(after: .transient) == nil && budget.tokens == 2)
        #expect(budget.retries == 2 && budget.throttles == 1)
        budget.succeeded(lastCost: 5)  // a retried request that got through gives its last retry's tokens back
        budget.succeeded(lastCost: nil)  // one that needed no retry adds one
        #expect(budget.tokens == 8)
        for _ in 0..<10 { budget.succeeded(lastCost: 5) }
        #expect(budget.tokens == 12, "never beyond the starting budget")
    }

    @Test func concurrencyHalvesOnceAThrottleAndGrowsBackOnSuccess() async throws {
        let slots = AdaptiveConcurrency(maximum: 8)
        var held: [AdaptiveConcurrency.Ticket] = []
        for _ in 0..<8 { held.append(try await slots.acquire()) }
        slots.release(held.removeLast(), .throttled)
        #expect(slots.limit == 4)
        // Requests sent before the halving that are throttled too are the same signal: no second halving.
        slots.release(held.removeLast(), .throttled)
        slots.release(held.removeLast(), .failed)
        #expect(slots.limit == 4)
        for ticket in held { slots.release(ticket, .failed) }
        held = []
        let later = try await slots.acquire()
        slots.release(later, .throttled)
        #expect(slots.limit == 2 && slots.lowest == 2)
        for _ in 0..<3 { slots.release(try await slots.acquire(), .throttled) }
        #expect(slots.limit == 1, "never below one")
        // Growth: one more slot after as many successes as the limit allows at once.
        slots.release(try await slots.acquire(), .succeeded)
        #expect(slots.limit == 2)
        for _ in 0..<2 { slots.release(try await slots.acquire(), .succeeded) }
        #expect(slots.limit == 3 && slots.lowest == 1)
        for _ in 0..<40 { slots.release(try await slots.acquire(), .succeeded) }
        #expect(slots.limit == 8, "back to the maximum, no further")
    }

    @Test func aRequestWaitsWhileTheLimitIsFullAndACancelledOneLeaves() async throws {
        let slots = AdaptiveConcurrency(maximum: 2)
        let first = try await slots.acquire()
        let second = try await slots.acquire()
        let admitted = Flag()
        let waiting = Task {
            let ticket = try await slots.acquire()
            admitted.set()
            slots.release(ticket, .succeeded)
        }
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(!admitted.value)
        slots.release(first, .throttled)  // the limit is now 1, and the second request still holds it
        try await Task.sleep(nanoseconds: 50_000_000)
        #expect(!admitted.value && slots.limit == 1)
        slots.release(second, .failed)
        try await waiting.value
        #expect(admitted.value)

        let one = AdaptiveConcurrency(maximum: 1)
        let blocker = try await one.acquire()
        let cancelled = Task { try await one.acquire() }
        try await Task.sleep(nanoseconds: 20_000_000)
        cancelled.cancel()
        await #expect(throws: CancellationError.self) { _ = try await cancelled.value }
        one.release(blocker, .succeeded)
        one.release(try await one.acquire(), .succeeded)  // the cancelled waiter took no slot
    }

    @Test(.timeLimit(.minutes(1))) func manyRequestsAtOnceNeverLoseASlot() async throws {
        // Slots freed while another request is about to queue must reach it: with a lost wake-up the
        // limit, halved to 1, ends with every request waiting and none running.
        let slots = AdaptiveConcurrency(maximum: 4)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<400 {
                group.addTask {
                    let ticket = try await slots.acquire()
                    await Task.yield()
                    slots.release(ticket, index % 3 == 0 ? .throttled : .succeeded)
                }
            }
            try await group.waitForAll()
        }
        slots.release(try await slots.acquire(), .succeeded)
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var stored = false
        func set() { lock.withLock { stored = true } }
        var value: Bool { lock.withLock { stored } }
    }
}
