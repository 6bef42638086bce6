import Foundation

/// Somewhere a built site is published: an S3 bucket, a local or mounted folder, and later perhaps
/// rsync over SSH or a Pages host.
///
/// A target only lists, writes and removes objects; what to send and in which order is the
/// `DeployPlan`'s and the `Deployer`'s business, so a new target is these three operations.
/// Keys are paths relative to the site root (`photos/kite/800x500.jpg`), without the target's prefix.
public protocol DeployTarget: Sendable {
    /// Where the site goes, for messages: `s3://bucket/prefix` or `file:///srv/www`.
    var description: String { get }
    /// Every object the target holds, with what it knows of each one's content.
    /// - Throws: `DeployError` when the target cannot be read (wrong credentials, missing bucket).
    func list() async throws -> [RemoteObject]
    /// Stores one file under its key, replacing what was there.
    /// - Throws: `DeployError`.
    func put(_ file: LocalFile) async throws
    /// Removes objects; keys that are already gone are not an error.
    /// - Throws: `DeployError` naming the keys that could not be removed.
    func delete(_ keys: [String]) async throws
    /// Called once the plan has fully run, with every key the target now holds, so a target that
    /// keeps a record of what it holds (`FolderTarget`) can update it.
    /// - Throws: `DeployError`.
    func finished(holding keys: [String]) async throws
    /// Releases connections; called once when the deploy is over.
    func close() async
    /// The retries and throttling so far (none for a target that does not retry).
    var traffic: DeployTraffic { get }
}

extension DeployTarget {
    package func finished(holding keys: [String]) async throws {}
    package func close() async {}
    package var traffic: DeployTraffic { DeployTraffic() }
}

/// What it took to reach a target: requests sent again, and how the store throttled.
public struct DeployTraffic: Sendable, Equatable {
    /// Requests sent again after a failure (`S3RetryPolicy`).
    package var retries = 0
    /// Throttling answers (503 `SlowDown`, 429) among the failures.
    package var throttles = 0
    /// The fewest requests at once the deploy went down to while throttled (`AdaptiveConcurrency`).
    package var lowestConcurrency: Int?
}

/// What a target holds under one key. Either digest may be unknown; the plan compares the ones it has.
public struct RemoteObject: Sendable, Equatable {
    package var key: String
    package var size: Int
    /// Lowercase hex MD5 of the content, when the target's ETag is one (a single-part S3 upload).
    package var md5: String?
    /// Lowercase hex SHA-256 of the content: stored in `x-amz-meta-sha256` by our uploads, or computed.
    package var sha256: String?

    package init(key: String, size: Int, md5: String? = nil, sha256: String? = nil) {
        self.key = key
        self.size = size
        self.md5 = md5
        self.sha256 = sha256
    }
}

/// One file of the built site, with the headers it is served with.
public struct LocalFile: Sendable, Equatable {
    /// The path relative to the site root, with `/` separators.
    package var key: String
    package var url: URL
    package var size: Int
    package var md5: String
    package var sha256: String
    package var contentType: String
    /// From the site's `_headers` file, or the default for pages; nil leaves the host's default.
    package var cacheControl: String?
    /// HTML, feeds, the sitemap, the search index and the other files that refer to images.
    package var isPage: Bool

    /// Whether `remote` already holds exactly these bytes, judged by the digests it offers.
    package func matches(_ remote: RemoteObject) -> Bool {
        guard remote.size == size else { return false }
        if let sha = remote.sha256 { return sha == sha256 }
        if let md5 = remote.md5 { return md5 == self.md5 }
        return false
    }

    package init(
        key: String, url: URL, size: Int, md5: String, sha256: String, contentType: String, cacheControl: String? = nil,
        isPage: Bool
    ) {
        self.key = key
        self.url = url
        self.size = size
        self.md5 = md5
        self.sha256 = sha256
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.isPage = isPage
    }
}
