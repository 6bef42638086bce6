import Foundation
import GalleryFetch
import GalleryModel
import GalleryPipeline
import GalleryStore
import Synchronization
import Testing

/// Waiters that must give up when their task is cancelled, and shared state that must do each
/// piece of work once however many tasks ask at the same moment.
@Suite("Cancellation and shared state")
struct ConcurrencyTests {
    /// A flag a test raises to let a blocked job (on its own thread) finish.
    final class Gate: Sendable {
        private let open = Atomic<Bool>(false)
        func release() { open.store(true, ordering: .releasing) }
        /// Blocks the calling thread (a `WorkBudget` job's own thread, never a task) until released or `limit` passes.
        func pass(limit: Double = 10) {
            let started = Date()
            while !open.load(ordering: .acquiring) && Date().timeIntervalSince(started) < limit { usleep(1_000) }
        }
    }

    /// Runs each job on a new thread of its own, not on the cooperative pool (one thread per core,
    /// which other tests keep busy): tasks that prefer it really run at the same time, and the
    /// timings below measure the code under test, not the wait for a free thread of the pool.
    final class ThreadPerJob: TaskExecutor {
        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            Thread { job.runSynchronously(on: self.asUnownedTaskExecutor()) }.start()
        }
    }

    static let threads = ThreadPerJob()

    /// Waits (polling) until `condition` holds or `limit` seconds pass.
    static func eventually(_ limit: Double = 10, _ condition: () async -> Bool) async -> Bool {
        let started = ContinuousClock.now
        while started.duration(to: .now) < .seconds(limit) {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return await condition()
    }

    @Test func cancelledWaiterOnAFullWorkBudgetThrowsAtOnceAndTheBudgetStillWorks() async throws {
        try await withTaskExecutorPreference(Self.threads) {
            let budget = WorkBudget(jobs: 1, pixels: 100)
            let gate = Gate()
            let started = Atomic<Int>(0)
            let holder = Task(executorPreference: Self.threads) {
                try await budget.run(pixels: 10) {
                    started.add(1, ordering: .relaxed)
                    gate.pass()
                }
            }
            #expect(await Self.eventually { started.load(ordering: .relaxed) == 1 })

            // The budget is full: this one waits, then is cancelled while the holder still runs.
            let waiter = Task(executorPreference: Self.threads) { try await budget.run(pixels: 10) { 42 } }
            try await Task.sleep(for: .milliseconds(50))
            let cancelled = ContinuousClock.now
            waiter.cancel()
            let result = await waiter.result
            let waited = cancelled.duration(to: .now)
            // Only now: with waiters that ignore cancellation, the waiter ran once this freed the budget.
            gate.release()
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(waited < .seconds(1), "the cancelled waiter took \(waited) to give up")
            try await holder.value

            // The cancelled waiter left nothing behind: the next job is admitted and runs alone.
            #expect(try await budget.run(pixels: 100) { 7 } == 7)
            let peaks = budget.peaks
            #expect(peaks.jobs == 1 && peaks.pixels == 100)
        }
    }

    @Test func waitersBehindACancelledOneAreAdmittedWhenItLeaves() async throws {
        try await withTaskExecutorPreference(Self.threads) {
            // Room for two jobs and 100 pixels: a job of 60 runs, one of 100 waits for the room, and
            // one of 10, which would fit, waits behind it (first come, first served).
            let budget = WorkBudget(jobs: 2, pixels: 100)
            let gate = Gate()
            let started = Atomic<Int>(0)
            let holder = Task(executorPreference: Self.threads) {
                try await budget.run(pixels: 60) {
                    started.add(1, ordering: .relaxed)
                    gate.pass()
                }
            }
            #expect(await Self.eventually { started.load(ordering: .relaxed) == 1 })
            let large = Task(executorPreference: Self.threads) { try await budget.run(pixels: 100) { 1 } }
            try await Task.sleep(for: .milliseconds(50))
            let small = Task(executorPreference: Self.threads) { try await budget.run(pixels: 10) { 2 } }
            try await Task.sleep(for: .milliseconds(50))

            large.cancel()
            let cancelled = ContinuousClock.now
            let admitted = await Self.eventually(2) { budget.peaks.jobs == 2 }
            let waited = cancelled.duration(to: .now)
            gate.release()
            #expect(admitted, "the small job was not admitted beside the holder after the large one was cancelled")
            #expect(waited < .seconds(1))
            await #expect(throws: CancellationError.self) { try await large.value }
            #expect(try await small.value == 2)
            try await holder.value
            #expect(budget.peaks.pixels == 70)
        }
    }

    @Test func cancelledWaiterForAHostSlotThrowsAtOnce() async throws {
        try await withTaskExecutorPreference(Self.threads) {
            let limiter = HostLimiter(limit: 1)
            let holding = Atomic<Int>(0)
            let holder = Task(executorPreference: Self.threads) {
                try await limiter.withSlot(for: "example.org") {
                    holding.add(1, ordering: .relaxed)
                    try? await Task.sleep(for: .seconds(2))  // not cancelled: the slot stays taken
                }
            }
            #expect(await Self.eventually { holding.load(ordering: .relaxed) == 1 })
            let ran = Atomic<Int>(0)
            let waiter = Task(executorPreference: Self.threads) {
                try await limiter.withSlot(for: "example.org") { ran.add(1, ordering: .relaxed) }
            }
            try await Task.sleep(for: .milliseconds(50))
            let cancelled = ContinuousClock.now
            waiter.cancel()
            let result = await waiter.result
            let waited = cancelled.duration(to: .now)
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(waited < .milliseconds(500), "the cancelled waiter took \(waited) to give up")
            #expect(ran.load(ordering: .relaxed) == 0)
            try await holder.value
            // The slot went back: another request gets it at once.
            #expect(try await limiter.withSlot(for: "example.org") { 5 } == 5)
        }
    }

    @Test func retryBackoffEndsWhenCancelled() async throws {
        try await withTaskExecutorPreference(Self.threads) {
            let policy = RetryPolicy(retries: 5, baseDelay: 10, maxDelay: 10)
            let attempts = Atomic<Int>(0)
            let retrying = Task(executorPreference: Self.threads) {
                try await policy.run { () async throws -> Int in
                    attempts.add(1, ordering: .relaxed)
                    throw FetchError(url: URL(string: "http://127.0.0.1:9/x")!, "connection refused", kind: .transient)
                }
            }
            #expect(await Self.eventually { attempts.load(ordering: .relaxed) == 1 })
            try await Task.sleep(for: .milliseconds(20))  // in the first backoff (5 to 10 s)
            let cancelled = ContinuousClock.now
            retrying.cancel()
            let result = await retrying.result
            let waited = cancelled.duration(to: .now)
            #expect(throws: CancellationError.self) { try result.get() }
            #expect(waited < .milliseconds(100), "the backoff took \(waited) to stop")
            #expect(attempts.load(ordering: .relaxed) == 1)
        }
    }

    @Test func aCancelledTaskStartsNoRetry() async throws {
        await withTaskExecutorPreference(Self.threads) {
            let attempts = Atomic<Int>(0)
            let task = Task(executorPreference: Self.threads) {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await RetryPolicy(retries: 3, baseDelay: 0).run { () async throws -> Int in
                    attempts.add(1, ordering: .relaxed)
                    return 1
                }
            }
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(attempts.load(ordering: .relaxed) == 0)
        }
    }

    /// Many photos asking at once for the same cached blob, whose time changed so its check hashes
    /// every byte: the blob is checked once, and every caller gets the intact file.
    @Test func concurrentLookupsOfOneBlobCheckItOnce() async throws {
        let folder = try Fixtures.temporaryFolder()
        let store = BlobStore(folder: folder, kind: "images")
        let key = Fixtures.key("shared blob")
        var bytes = Data(count: 24 << 20)
        bytes.withUnsafeMutableBytes {
            for index in stride(from: 0, to: $0.count, by: 4096) { $0[index] = UInt8(truncatingIfNeeded: index >> 12) }
        }
        var (record, _) = try store.put(bytes, key: key)
        record.modified -= 1_000  // as if the file had been touched: each check hashes it
        var records = DigestTable<BlobStamp>(capacity: 1)
        records.append(key, record)
        records.sort()
        let cache = BlobCache(store: store, records: records, reuse: true)

        let found = await withTaskGroup(of: BlobFile?.self, returning: [BlobFile?].self) { group in
            for _ in 0..<32 { group.addTask(executorPreference: Self.threads) { await cache.file(key) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(found.map { $0 != nil } == Array(repeating: true, count: 32))
        #expect(cache.checks == 1, "the blob was checked \(cache.checks) times")
        // Re-hashed once: its new time goes to the state, carried by whichever caller's work is
        // gathered first, and by none once the state's pending records have it.
        #expect(found.allSatisfy { $0?.record?.key == key && $0?.record?.modified == record.modified + 1_000 })
        cache.recorded(found.compactMap { $0?.record })
        #expect(await cache.file(key)?.record == nil)
    }

    /// A key the state does not know is a miss until this build stores it, then intact.
    @Test func anUnknownBlobIsAMissUntilStored() async throws {
        let folder = try Fixtures.temporaryFolder()
        let store = BlobStore(folder: folder, kind: "pages")
        let cache = BlobCache(store: store, records: DigestTable(), reuse: true)
        let key = Fixtures.key("missing page")
        #expect(await cache.file(key) == nil)  // a key nobody recorded: a miss, without a look
        let stored = try cache.put(Data("page".utf8), key: key)
        #expect(stored.record?.size == 4)  // the new record, for the work that stored it to carry back
        #expect(await cache.file(key)?.identity == stored.identity)
        #expect(cache.record(key)?.size == 4)
    }

    /// A blob's new record stays with the work that uses it until the state's pending records have
    /// that very record: one older than the blob's current file (stored again since) does not count.
    @Test func aBlobStoredAgainKeepsItsNewerRecordUntilThatIsRecorded() async throws {
        let cache = BlobCache(
            store: BlobStore(folder: try Fixtures.temporaryFolder(), kind: "images"), records: DigestTable(),
            reuse: true)
        let key = Fixtures.key("stored twice")
        let first = try #require(try cache.put(Data("first".utf8), key: key).record)
        let second = try #require(try cache.put(Data("second, longer".utf8), key: key).record)
        cache.recorded([first])
        #expect(await cache.file(key)?.record == second)
        cache.recorded([second])
        #expect(await cache.file(key)?.record == nil)
    }
}
