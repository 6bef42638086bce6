import Foundation
import GalleryModel

/// What the state remembers about one photo of the last build, without its metadata text.
///
/// Enough to tell whether the photo changed and to republish it without touching its original:
/// the keys of all its output files are here, and the facts they were made from are stored by
/// content hash (`OriginalFacts`) and by thumbnail key (`Placeholder`).
package struct PhotoState: Sendable, Equatable {
    package var id: String
    /// Position in the manifest, so `--offline` rebuilds in the same order.
    package var position: Int
    /// Digest of the photo's mapped metadata (`PhotoPublisher.metadataHash`).
    package var metadataHash: Digest
    /// The original's file path or URL.
    package var location: String
    package var etag: String?
    package var lastModified: String?
    /// A local original's size and modification time (ns) when `contentHash` was computed.
    package var fileSize: Int?
    package var fileModified: Int?
    /// SHA-256 of the original's bytes.
    package var contentHash: Digest
    /// Keys of every blob the photo's output links to: derivatives, and the original when published.
    package var blobKeys: [Digest]
    /// Key of the thumbnail pixels its placeholder and average colour come from.
    package var thumbnailKey: Digest

    /// Whether the original is a download rather than a local file.
    package var isRemote: Bool { ImageLocation.isRemote(stored: location) }

    package init(
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
package struct Placeholder: Codable, Sendable, Equatable {
    package var averageColor: String
    /// A `data:image/jpeg;base64,…` URI.
    package var dataURI: String
    /// What the decoder forgave when these pixels were decoded (a JPEG with junk between markers,
    /// say), kept so every build reports them, not only the one that decoded the photo.
    package var warnings: [String] = []

    package init(averageColor: String, dataURI: String, warnings: [String] = []) {
        self.averageColor = averageColor
        self.dataURI = dataURI
        self.warnings = warnings
    }
}

/// What a cache remembers of one of its files, kept under the file's key: a third the size of a
/// `BlobRecord`, which also holds the key and the cache's name, for every one of a large site's
/// hundreds of thousands of files.
package struct BlobStamp: Codable, Sendable, Equatable {
    package var size: Int
    /// Modification time in nanoseconds since 1970.
    package var modified: Int
    package var sha256: Digest
}

/// One file of a content-addressed cache, as recorded when it was stored.
///
/// Checking a blob compares its size and modification time with this record; when either
/// differs, the file is hashed again and must match `sha256`, else it counts as a miss.
package struct BlobRecord: Sendable, Equatable {
    package var key: Digest
    /// `images` (derivatives and published originals) or `pages` (rendered HTML).
    package var kind: String
    package var size: Int
    /// Modification time in nanoseconds since 1970.
    package var modified: Int
    package var sha256: Digest
}

/// A page as the last build published it.
package struct PageRecord: Sendable, Equatable {
    /// The digest of everything the page was rendered from (`PageModel.inputKey`); nil for files
    /// that are made whole every build (`robots.txt`, the search index).
    package var inputs: Digest?
    /// The cached file's key: the digest of the page's bytes.
    package var key: Digest

    package init(inputs: Digest? = nil, key: Digest) {
        self.inputs = inputs
        self.key = key
    }
}

/// What one build did, kept for `galleryssg cache stats`.
package struct BuildCounts: Codable, Sendable, Equatable {
    package var photosNew = 0
    package var photosChanged = 0
    package var photosUnchanged = 0
    package var photosRemoved = 0
    package var derivativesMade = 0
    package var derivativesReused = 0
    package var pagesRendered = 0
    package var pagesReused = 0

    package init() {}
}

/// Everything a build changes in the state, written in one transaction before the site is published.
package struct StateChanges: Sendable {
    /// The manifest's source; rows of any other source are removed.
    package var source: String
    /// Photos that failed this build (their rows are kept) and whose manifest position moved. The
    /// published photos' new, changed and moved rows are in the pending table (`StateDatabase.addPendingRows`).
    package var positions: [(id: String, position: Int)] = []
    /// Photos no longer in the manifest.
    package var removedIDs: [String] = []
    /// Blobs no photo or page uses any more. The records of the blobs the build stored or re-checked
    /// are in the pending table (`StateDatabase.addPendingRows`, `addPendingPages`).
    package var deletedBlobs: [Digest] = []
    package var originals: [(hash: Digest, facts: OriginalFacts)] = []
    package var placeholders: [(key: Digest, value: Placeholder)] = []
    /// Whether the build's pages are in the pending table (`StateDatabase.addPendingPages`) and replace
    /// the last build's; false when its pages are the last build's (`PagePublisher.Outcome.samePagesAsBefore`).
    package var pagesStaged = false
    package var counts = BuildCounts()
    /// The key of everything the site's pages were made from (`PagePublisher.siteKey`).
    package var pagesKey: Digest?
    /// The cache's learnt files this build read or knew (`SharedLearnt.stamps`): once the build is
    /// saved, the state holds all it needed of them, and the next build reads only new versions.
    package var learntFiles: [String: String] = [:]

    package init(source: String) {
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
