import Foundation

/// What a build did: counts, every skipped photo with its reason, and where the time went.
/// Written as JSON by `galleryssg build --report FILE`.
public struct BuildReport: Codable, Sendable {
    public struct Failure: Codable, Sendable, Equatable {
        /// The photo id, or the manifest position when the entry had no usable id.
        public var id: String
        /// The file path or URL of the original, when known.
        public var location: String?
        /// The pipeline step that failed: `manifest`, `fetch`, `imaging` or `write`.
        public var stage: String
        /// The last HTTP status, for downloads that got a response.
        public var status: Int?
        public var reason: String
    }

    public var source: String = ""
    public var output: String = ""
    /// Entries in the manifest, including those that were skipped.
    public var photosInManifest = 0
    public var photosPublished = 0
    public var photosSkipped = 0
    public var pages = 0
    public var derivatives = 0
    public var bytesWritten = 0
    public var failures: [Failure] = []
    /// Network work for this build: requests (retries included), downloads, 304 reuses, 429/5xx answers.
    public var downloads = DownloadStats.Counts()
    /// Wall-clock seconds per pipeline step, in step order.
    public var stepSeconds: [String: Double] = [:]
    /// Seconds summed over all photos for the per-photo work inside the `images` step.
    public var photoSeconds: [String: Double] = [:]
    public var totalSeconds = 0.0

    public init() {}

    /// The report as pretty, key-sorted JSON.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// One line for the terminal, such as `15 photos, 17 pages, 1 skipped in 2.4 s`.
    public var summary: String {
        let time = String(format: "%.2f s", totalSeconds)
        return "\(photosPublished) photos, \(pages) pages, \(derivatives) images, \(photosSkipped) skipped in \(time)"
    }
}

/// Why a build stopped; the previous site is always left in place.
public struct BuildError: Error, CustomStringConvertible, Sendable {
    /// The pipeline step that failed, such as `manifest` or `publish`.
    public let step: String
    public let reason: String
    public var description: String { "\(step): \(reason)" }

    init(step: String, _ reason: String) {
        self.step = step
        self.reason = reason
    }
}
