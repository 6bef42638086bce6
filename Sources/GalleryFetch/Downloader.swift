import Foundation
import GalleryConfig
import GalleryModel

/// The network side of a build: API pages and originals, with per-host limits, retries, one request
/// per distinct URL, content checks and a revalidating disk cache for originals.
package final class Downloader: Sendable {
    package let transport: HTTPTransport
    private let limiter: HostLimiter
    /// How failed requests are retried (`network.retries`); API providers retry their own
    /// application-level failures with it too.
    package let retryPolicy: RetryPolicy
    private let cache: DownloadCache?
    private let inFlight = InFlightRequests()
    /// Sends no request at all: originals come from the cache only (`build --offline`).
    package let offline: Bool
    /// Whether cached originals may be reused; false downloads every original again (`build --rebuild`).
    package let reuseCache: Bool
    package let stats = DownloadStats()
    /// Headers the originals of one source need (an API key); nil when originals are public.
    private let originHeaders: OriginHeaders?

    /// - Parameters:
    ///   - cacheFolder: Where originals are cached; nil disables the cache.
    ///   - offline: Answer from the cache only and never touch the network.
    ///   - reuseCache: False ignores cached copies (they are still refreshed).
    ///   - originHeaders: Headers sent with the originals below one prefix (`OriginHeaders.for`).
    package init(
        transport: HTTPTransport, cacheFolder: URL?, offline: Bool = false, reuseCache: Bool = true,
        originHeaders: OriginHeaders? = nil
    ) {
        self.originHeaders = originHeaders
        self.transport = transport
        let settings = transport.settings
        limiter = HostLimiter(limit: settings.connectionsPerHost)
        retryPolicy = RetryPolicy(network: settings)
        cache = cacheFolder.map(DownloadCache.init(folder:))
        self.offline = offline
        self.reuseCache = reuseCache
    }

    /// GETs an API page. Timeouts, connection errors, 429 and 5xx are retried; any other status is
    /// returned so the provider can read the API's own error body.
    /// - Throws: `FetchError` once retries are used up.
    package func api(_ url: URL, headers: [(String, String)] = [], maxBytes: Int = 64 * 1024 * 1024) async throws
        -> HTTPTransport.Response
    {
        if offline { throw FetchError(url: url, "not requested: the build is --offline") }
        return try await retryPolicy.run {
            try await attempt(url, headers: headers, maxBytes: maxBytes)
        }
    }

    /// An original image's bytes. Each distinct URL is requested once per build, however many photos
    /// share it. A cached copy is revalidated with `If-None-Match`/`If-Modified-Since`, and a 304 reuses it.
    /// - Throws: `FetchError` with the URL, the status and the reason.
    package func original(_ url: URL) async throws -> Data {
        try await fetchOriginal(url).data
    }

    /// An original's bytes with the validators it was served with (`ETag`, `Last-Modified`).
    /// - Throws: `FetchError` with the URL, the status and the reason.
    package func fetchOriginal(_ url: URL) async throws -> FetchedOriginal {
        try await inFlight.value(for: url.absoluteString, again: { self.fetchedThisBuild(url) }) {
            try await self.download(url)
        }
    }

    /// A copy of an original this build already downloaded or revalidated, from the disk cache it was
    /// stored in; nil without a cache, so it is requested again.
    private func fetchedThisBuild(_ url: URL) -> FetchedOriginal? {
        cache?.lookup(url).map(FetchedOriginal.init(cached:))
    }

    /// Forgets the cached copy of an original that no photo uses any more.
    package func forget(_ url: URL) {
        cache?.remove(url)
    }

    private func download(_ url: URL) async throws -> FetchedOriginal {
        let cached = reuseCache ? cache?.lookup(url) : nil
        if offline {
            guard let cached else {
                throw FetchError(
                    url: url, "not in the download cache, and the build is --offline; build once online first")
            }
            await stats.count(\.reusedOffline)
            return FetchedOriginal(cached: cached)
        }
        var headers = originHeaders?.headers(for: url) ?? []
        if let etag = cached?.entry.etag { headers.append(("If-None-Match", etag)) }
        if let modified = cached?.entry.lastModified { headers.append(("If-Modified-Since", modified)) }
        let response = try await retryPolicy.run { try await attempt(url, headers: headers, maxBytes: nil) }
        if response.status == 304, let cached {
            await stats.count(\.revalidated)
            return FetchedOriginal(cached: cached)
        }
        guard (200..<300).contains(response.status) else { throw FetchError.status(response) }
        try Self.checkImage(response)
        let etag = response.header("etag")
        let lastModified = response.header("last-modified")
        cache?.store(url, data: response.body, etag: etag, lastModified: lastModified)
        await stats.count(\.downloaded)
        return FetchedOriginal(data: response.body, etag: etag, lastModified: lastModified)
    }

    private func attempt(_ url: URL, headers: [(String, String)], maxBytes: Int?) async throws -> HTTPTransport.Response
    {
        await stats.count(\.requests)
        let response = try await limiter.withSlot(for: url.host ?? "") {
            try await transport.send(url, headers: headers, maxBytes: maxBytes)
        }
        if FetchError.isTransient(status: response.status) {
            await stats.count(\.retriableFailures)
            throw FetchError.status(response)
        }
        return response
    }

    /// Rejects bodies in no format `ImageFormat` knows and that are no clip (`VideoSignature`), such
    /// as an HTML error page served as `image/jpeg`.
    package static func checkImage(_ response: HTTPTransport.Response) throws {
        guard ImageFormat.recognise(response.body) == nil, !VideoSignature.matches(response.body) else { return }
        let text = String(decoding: response.body.prefix(40), as: UTF8.self)
            .replacingOccurrences(of: "\n", with: " ").trimmingCharacters(in: .whitespaces)
        let looksLikeText = response.body.prefix(64).allSatisfy {
            $0 == 9 || $0 == 10 || $0 == 13 || (32..<127).contains($0)
        }
        let declared = response.contentType.map { " (served as \($0))" } ?? ""
        let what =
            response.body.isEmpty
            ? "an empty body"
            : looksLikeText ? "text starting \(JSONValue.string(text).quoted)" : "data in no supported image format"
        throw FetchError(url: response.url, "not an image: the server sent \(what)\(declared)", status: response.status)
    }
}

/// An original's bytes and the validators the server sent with them.
package struct FetchedOriginal: Sendable {
    package var data: Data
    package var etag: String?
    package var lastModified: String?
}

extension FetchedOriginal {
    /// A copy from the download cache, with the validators it was stored with.
    package init(cached: (entry: DownloadCache.Entry, data: Data)) {
        self.init(data: cached.data, etag: cached.entry.etag, lastModified: cached.entry.lastModified)
    }
}

/// Shares one request among every caller asking for the same URL.
///
/// A finished download is remembered as fetched, not kept: a task holds its result while it lives,
/// and keeping every original's bytes for the whole build took a 100,000-photo build to 3.2 GB.
/// A later caller for a fetched URL gets `again` (the disk cache); a failure is kept and repeated.
actor InFlightRequests {
    private enum Entry {
        case running(Task<FetchedOriginal, Error>)
        case fetched
        case failed(Error)
    }

    private var entries: [String: Entry] = [:]

    /// The download for `key`: shared with the caller already fetching it, or `work` run in a task
    /// of its own, which is cancelled when this caller is. A caller whose shared download was
    /// cancelled by its starter, while it was not cancelled itself, starts it again; a cancelled
    /// download is not remembered as failed.
    func value(
        for key: String, again: @Sendable () -> FetchedOriginal?,
        _ work: @escaping @Sendable () async throws -> FetchedOriginal
    ) async throws -> FetchedOriginal {
        lookup: while true {
            switch entries[key] {
            case .running(let task):
                do {
                    return try await task.value
                } catch  where task.isCancelled && !Task.isCancelled {
                    if isRunning(task, key) { entries[key] = nil }
                    continue lookup
                }
            case .failed(let error): throw error
            case .fetched: if let copy = again() { return copy }
            case nil: break
            }
            break lookup
        }
        let task = Task { try await work() }
        entries[key] = .running(task)
        do {
            let value = try await withTaskCancellationHandler {
                try await task.value
            } onCancel: {
                task.cancel()
            }
            if isRunning(task, key) { entries[key] = .fetched }
            return value
        } catch {
            if isRunning(task, key) { entries[key] = task.isCancelled ? nil : .failed(error) }
            throw error
        }
    }

    /// Whether `task` is still the download `key` is waiting on (a caller may have started another).
    private func isRunning(_ task: Task<FetchedOriginal, Error>, _ key: String) -> Bool {
        if case .running(let current) = entries[key] { return current == task }
        return false
    }
}

/// Counters for the build report.
package actor DownloadStats {
    package struct Counts: Codable, Sendable, Equatable {
        /// HTTP requests sent, retries included.
        package var requests = 0
        /// Originals downloaded in full.
        package var downloaded = 0
        /// Originals reused from the cache after a 304.
        package var revalidated = 0
        /// Responses that were 429 or 5xx.
        var retriableFailures = 0
        /// Originals taken from the cache without asking the server (`--offline`).
        package var reusedOffline = 0

        package init() {}
    }

    package private(set) var counts = Counts()

    package func count(_ field: WritableKeyPath<Counts, Int>) {
        counts[keyPath: field] += 1
    }

    package func snapshot() -> Counts { counts }
}
