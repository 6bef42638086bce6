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
    /// What images-only builds left in the cache (`SharedCache`), less the blob records `images` holds.
    let shared: SharedLearnt
    private let lock = NSLock()
    private var originals: [String: OriginalFacts] = [:]
    private var placeholders: [String: Placeholder] = [:]

    /// Where the caches live inside the cache folder (`SiteConfig.cacheDirectory`).
    static func imagesFolder(cache: URL) -> URL { cache.appendingPathComponent("images") }
    static func pagesFolder(cache: URL) -> URL { cache.appendingPathComponent("pages") }
    static func originalsFolder(cache: URL) -> URL { cache.appendingPathComponent("originals") }

    /// - Parameters:
    ///   - blobs: The blob records, taken out of the snapshot (`StateSnapshot.takeBlobs`).
    ///   - cache: The cache folder.
    ///   - shared: What images-only builds learnt (`SharedCache.load`); used when the state knows nothing.
    init(snapshot: StateSnapshot, blobs: (images: [String: BlobRecord], pages: [String: BlobRecord]), cache: URL,
         shared: SharedLearnt = SharedLearnt(), reuse: Bool) {
        self.snapshot = snapshot
        self.reuse = reuse
        var shared = shared
        let learntBlobs = shared.blobs
        shared.blobs = [:]
        self.shared = shared
        images = BlobCache(store: BlobStore(folder: Self.imagesFolder(cache: cache), kind: "images"), records: blobs.images,
                           shared: learntBlobs, reuse: reuse)
        pages = BlobCache(store: BlobStore(folder: Self.pagesFolder(cache: cache), kind: "pages"), records: blobs.pages, reuse: reuse)
    }

    /// The photo as the last build left it, if it was in the manifest.
    func prior(_ id: String) -> PhotoState? {
        snapshot.photos[id]
    }

    /// The original at a photo's location as the last build (its row, `prior`) and an images-only
    /// build (`shared`) knew it, in that order; none with `--force`.
    func knownOriginals(_ photo: Photo, prior: PhotoState?) -> [KnownOriginal] {
        guard reuse else { return [] }
        let location = photo.image.description
        return [prior?.knownOriginal, shared.originals[location]].compactMap { $0 }.filter { $0.location == location }
    }

    /// Header facts of an original, by content hash. Facts an images-only build learnt are kept as
    /// this build's, so the state has them from now on.
    func facts(_ hash: String) -> OriginalFacts? {
        if let known = lock.withLock({ originals[hash] }) ?? (reuse ? snapshot.originals[hash] : nil) { return known }
        guard reuse, let learnt = shared.facts[hash] else { return nil }
        remember(learnt, hash: hash)
        return learnt
    }

    func remember(_ facts: OriginalFacts, hash: String) {
        lock.withLock { originals[hash] = facts }
    }

    /// A placeholder, by the key of the thumbnail pixels it was made from.
    func placeholder(_ key: String) -> Placeholder? {
        if let known = lock.withLock({ placeholders[key] }) ?? (reuse ? snapshot.placeholders[key] : nil) { return known }
        guard reuse, let learnt = shared.placeholders[key] else { return nil }
        remember(learnt, key: key)
        return learnt
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
