import Foundation
import GalleryModel
import GalleryStore
import Testing

/// Shared state that must do each piece of work once however many tasks ask at the same moment.
@Suite("Cancellation and shared state")
struct ConcurrencyTests {
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

    /// Many photos asking at once for the same cached blob, whose time changed so its check hashes
    /// every byte: the blob is checked once, and every caller gets the intact file.
    @Test func concurrentLookupsOfOneBlobCheckItOnce() async throws {
        let folder = try Fixtures.temporaryFolder()
        let store = BlobStore(folder: folder, kind: "images")
        let key = Fixtures.key("shared blob")
        var bytes = Data(count: 24 << 20)
        bytes.withUnsafeMutableBytes { for index in stride(from: 0, to: $0.count, by: 4096) { $0[index] = UInt8(truncatingIfNeeded: index >> 12) } }
        var (record, _) = try store.put(bytes, key: key)
        record.modified -= 1_000   // as if the file had been touched: each check hashes it
        var records = DigestTable<BlobStamp>(capacity: 1)
        records.append(key, record)
        records.sort()
        let cache = BlobCache(store: store, records: records, reuse: true)

        let found = await withTaskGroup(of: Bool.self, returning: [Bool].self) { group in
            for _ in 0..<32 { group.addTask(executorPreference: Self.threads) { await cache.file(key) != nil } }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(found == Array(repeating: true, count: 32))
        #expect(cache.checks == 1, "the blob was checked \(cache.checks) times")
        #expect(cache.changedRecords.map(\.key) == [key])   // re-hashed once: its new time goes to the state
    }

    /// A key the state does not know is a miss until this build stores it, then intact.
    @Test func anUnknownBlobIsAMissUntilStored() async throws {
        let folder = try Fixtures.temporaryFolder()
        let store = BlobStore(folder: folder, kind: "pages")
        let cache = BlobCache(store: store, records: DigestTable(), reuse: true)
        let key = Fixtures.key("missing page")
        #expect(await cache.file(key) == nil)   // a key nobody recorded: a miss, without a look
        let stored = try cache.put(Data("page".utf8), key: key)
        #expect(await cache.file(key)?.identity == stored.identity)
        #expect(cache.record(key)?.size == 4)
    }
}
