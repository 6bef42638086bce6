import Foundation

/// The state as one build sees and extends it: the snapshot it started from, the blob caches, and
/// the facts learnt on the way. Injected into the `images` and `pages` steps; thread-safe.
final class BuildState: @unchecked Sendable {
    let snapshot: StateSnapshot
    /// False for `build --force`: nothing cached by earlier builds is reused.
    let reuse: Bool
    /// Derivatives and published originals.
    let images: BlobCache
    /// Rendered pages.
    let pages: BlobCache
    private let lock = NSLock()
    private var originals: [String: OriginalFacts] = [:]
    private var placeholders: [String: Placeholder] = [:]

    /// Where the caches live inside a state folder.
    static func imagesFolder(in state: URL) -> URL { state.appendingPathComponent("cache/images") }
    static func pagesFolder(in state: URL) -> URL { state.appendingPathComponent("cache/pages") }
    static func originalsFolder(in state: URL) -> URL { state.appendingPathComponent("cache/originals") }

    /// - Parameter blobs: The blob records, taken out of the snapshot (`StateSnapshot.takeBlobs`).
    init(snapshot: StateSnapshot, blobs: (images: [String: BlobRecord], pages: [String: BlobRecord]), folder: URL, reuse: Bool) {
        self.snapshot = snapshot
        self.reuse = reuse
        images = BlobCache(store: BlobStore(folder: Self.imagesFolder(in: folder), kind: "images"), records: blobs.images, reuse: reuse)
        pages = BlobCache(store: BlobStore(folder: Self.pagesFolder(in: folder), kind: "pages"), records: blobs.pages, reuse: reuse)
    }

    /// The photo as the last build left it, if it was in the manifest.
    func prior(_ id: String) -> PhotoState? {
        snapshot.photos[id]
    }

    /// Header facts of an original, by content hash.
    func facts(_ hash: String) -> OriginalFacts? {
        lock.withLock { originals[hash] } ?? (reuse ? snapshot.originals[hash] : nil)
    }

    func remember(_ facts: OriginalFacts, hash: String) {
        lock.withLock { originals[hash] = facts }
    }

    /// A placeholder, by the key of the thumbnail pixels it was made from.
    func placeholder(_ key: String) -> Placeholder? {
        lock.withLock { placeholders[key] } ?? (reuse ? snapshot.placeholders[key] : nil)
    }

    func remember(_ placeholder: Placeholder, key: String) {
        lock.withLock { placeholders[key] = placeholder }
    }

    /// Facts and placeholders learnt by this build that the state does not have yet, sorted so the
    /// state is written deterministically.
    var learnt: (originals: [(hash: String, facts: OriginalFacts)], placeholders: [(key: String, value: Placeholder)]) {
        lock.withLock {
            (originals.filter { snapshot.originals[$0.key] != $0.value }.sorted { $0.key < $1.key }
                .map { (hash: $0.key, facts: $0.value) },
             placeholders.filter { snapshot.placeholders[$0.key] != $0.value }.sorted { $0.key < $1.key }
                .map { (key: $0.key, value: $0.value) })
        }
    }
}

/// Runs each piece of keyed work once per build; later callers with the same key wait for it.
actor SharedWork<Value: Sendable> {
    private var tasks: [String: Task<Value, Error>] = [:]

    /// Runs `work` unless work with this key already ran or is running.
    /// - Parameter waiter: Turns the result into what a caller that only waited gets.
    /// - Returns: The work's result for the caller that ran it.
    func run(_ key: String, waiter: @Sendable (Value) -> Value,
             _ work: @escaping @Sendable () async throws -> Value) async throws -> Value {
        if let task = tasks[key] {
            return waiter(try await task.value)
        }
        let task = Task { try await work() }
        tasks[key] = task
        return try await task.value
    }
}
