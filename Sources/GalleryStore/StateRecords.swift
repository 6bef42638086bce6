import Foundation
import GalleryModel

/// What the state remembers about one photo of the last build, without its metadata text.
///
/// Enough to tell whether the photo changed and to republish it without touching its original:
/// the keys of all its output files are here, and the facts they were made from are stored by
/// content hash (`OriginalFacts`) and by thumbnail key (`Placeholder`).
public struct PhotoState: Sendable, Equatable {
    public var id: String
    /// Position in the manifest, so `--offline` rebuilds in the same order.
    public var position: Int
    /// Digest of the photo's mapped metadata (`PhotoPublisher.metadataHash`).
    public var metadataHash: Digest
    /// The original's file path or URL.
    public var location: String
    public var etag: String?
    public var lastModified: String?
    /// A local original's size and modification time (ns) when `contentHash` was computed.
    public var fileSize: Int?
    public var fileModified: Int?
    /// SHA-256 of the original's bytes.
    public var contentHash: Digest
    /// Keys of every blob the photo's output links to: derivatives, and the original when published.
    public var blobKeys: [Digest]
    /// Key of the thumbnail pixels its placeholder and average colour come from.
    public var thumbnailKey: Digest

    /// Whether the original is a download rather than a local file.
    public var isRemote: Bool { ImageLocation.isRemote(stored: location) }

    public init(
        id: String, position: Int, metadataHash: Digest, location: String, etag: String? = nil,
        lastModified: String? = nil, fileSize: Int? = nil, fileModified: Int? = nil, contentHash: Digest,
        blobKeys: [Digest], thumbnailKey: Digest
    ) {
        self.id = id
        self.position = position
        self.metadataHash = metadataHash
        self.location = location
        self.etag = etag
        self.lastModified = lastModified
        self.fileSize = fileSize
        self.fileModified = fileModified
        self.contentHash = contentHash
        self.blobKeys = blobKeys
        self.thumbnailKey = thumbnailKey
    }
}

/// A photo's placeholder image and average colour, computed from its thumbnail's pixels.
public struct Placeholder: Codable, Sendable, Equatable {
    public var averageColor: String
    /// A `data:image/jpeg;base64,…` URI.
    public var dataURI: String
    /// What the decoder forgave when these pixels were decoded (a JPEG with junk between markers,
    /// say), kept so every build reports them, not only the one that decoded the photo.
    public var warnings: [String] = []

    public init(averageColor: String, dataURI: String, warnings: [String] = []) {
        self.averageColor = averageColor
        self.dataURI = dataURI
        self.warnings = warnings
    }
}

/// What a cache remembers of one of its files, kept under the file's key: a third the size of a
/// `BlobRecord`, which also holds the key and the cache's name, for every one of a large site's
/// hundreds of thousands of files.
public struct BlobStamp: Codable, Sendable, Equatable {
    public var size: Int
    /// Modification time in nanoseconds since 1970.
    public var modified: Int
    public var sha256: Digest
}

/// One file of a content-addressed cache, as recorded when it was stored.
///
/// Checking a blob compares its size and modification time with this record; when either
/// differs, the file is hashed again and must match `sha256`, else it counts as a miss.
public struct BlobRecord: Sendable, Equatable {
    public var key: Digest
    /// `images` (derivatives and published originals) or `pages` (rendered HTML).
    public var kind: String
    public var size: Int
    /// Modification time in nanoseconds since 1970.
    public var modified: Int
    public var sha256: Digest
}

/// A page as the last build published it.
public struct PageRecord: Sendable, Equatable {
    /// The digest of everything the page was rendered from (`PageModel.inputKey`); nil for files
    /// that are made whole every build (`robots.txt`, the search index).
    public var inputs: Digest?
    /// The cached file's key: the digest of the page's bytes.
    public var key: Digest

    public init(inputs: Digest? = nil, key: Digest) {
        self.inputs = inputs
        self.key = key
    }
}

/// What one build did, kept for `galleryssg cache stats`.
public struct BuildCounts: Codable, Sendable, Equatable {
    public var photosNew = 0
    public var photosChanged = 0
    public var photosUnchanged = 0
    public var photosRemoved = 0
    public var derivativesMade = 0
    public var derivativesReused = 0
    public var pagesRendered = 0
    public var pagesReused = 0

    public init() {}
}

/// Everything a build changes in the state, written in one transaction before the site is published.
public struct StateChanges: Sendable {
    /// The manifest's source; rows of any other source are removed.
    public var source: String
    /// Photos that failed this build (their rows are kept) and whose manifest position moved. The
    /// published photos' new, changed and moved rows are in the pending table (`StateDatabase.addPendingRows`).
    public var positions: [(id: String, position: Int)] = []
    /// Photos no longer in the manifest.
    public var removedIDs: [String] = []
    /// Blobs no photo or page uses any more. The records of the blobs the build stored or re-checked
    /// are in the pending table (`StateDatabase.addPendingRows`, `addPendingPages`).
    public var deletedBlobs: [Digest] = []
    public var originals: [(hash: Digest, facts: OriginalFacts)] = []
    public var placeholders: [(key: Digest, value: Placeholder)] = []
    /// Whether the build's pages are in the pending table (`StateDatabase.addPendingPages`) and replace
    /// the last build's; false when its pages are the last build's (`PagePublisher.Outcome.samePagesAsBefore`).
    public var pagesStaged = false
    public var counts = BuildCounts()
    /// The key of everything the site's pages were made from (`PagePublisher.siteKey`).
    public var pagesKey: Digest?
    /// The cache's learnt files this build read or knew (`SharedLearnt.stamps`): once the build is
    /// saved, the state holds all it needed of them, and the next build reads only new versions.
    package var learntFiles: [String: String] = [:]

    public init(source: String) {
        self.source = source
    }
}

extension Photo {
    /// The photo's metadata as JSON with sorted keys: the same photo always gives the same text.
    /// Made only when a row is written, one photo at a time.
    package func canonicalJSON() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
