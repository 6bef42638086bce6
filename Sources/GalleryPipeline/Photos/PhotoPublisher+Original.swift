import Foundation
import GalleryFetch
import GalleryKeys
import GalleryModel
import GalleryStore

/// A photo's original as one build knows it: identified cheaply when the state vouches for it,
/// read in full only when pixels or headers are needed.
extension PhotoPublisher {
    /// The original as this build knows it: its content hash, and its bytes once they were read.
    package struct Original: Sendable {
        package var hash: Digest
        package var data: Data?
        package var etag: String?
        package var lastModified: String?
        package var stamp: FileStamp?
        /// Whether `hash` was taken from the state rather than computed from the bytes.
        var trusted: Bool
        /// Whether identifying it found a video container (hashed from disk in chunks, never held).
        var isVideo = false
    }

    /// Finds the original's content hash, reading it only when the state cannot vouch for it.
    ///
    /// A local file is trusted when its path, size and modification time match what the last build
    /// or an images-only build saw (`known`); a download when its URL does (photo hosts give a
    /// changed photo a new URL; `--rebuild` fetches every original again).
    func identify(_ photo: Photo, known: [KnownOriginal]) async throws -> Original {
        let location = photo.image.description
        var stamp: FileStamp?
        if let path = photo.image.filePath {
            stamp = FileStamp.of(path)
            guard stamp != nil else {
                throw FetchError(file: URL(fileURLWithPath: path), "file not found or not readable")
            }
        }
        if let prior = known.first(where: {
            $0.location == location && $0.fileSize == stamp?.size
                && $0.fileModified == stamp?.modified
        }) {
            return Original(
                hash: prior.contentHash, data: nil, etag: prior.etag, lastModified: prior.lastModified, stamp: stamp,
                trusted: true)
        }
        // A clip of gigabytes is hashed from disk a megabyte at a time; ffmpeg reads it where it is.
        if let path = photo.image.filePath, Self.startsAsVideo(path) {
            guard let hash = Digest.sha256(file: path) else {
                throw FetchError(file: URL(fileURLWithPath: path), "file could not be read; check its permissions")
            }
            var original = Original(hash: hash, stamp: stamp, trusted: false)
            original.isVideo = true
            return original
        }
        let fetched = try await fetcher.fetchOriginal(photo.image)
        var original = Original(
            hash: CacheKey.sha256(fetched.data), data: fetched.data, etag: fetched.etag,
            lastModified: fetched.lastModified, stamp: stamp, trusted: false)
        original.isVideo = VideoSignature.matches(fetched.data)
        return original
    }

    /// The original's bytes, fetched now if they were not read yet.
    /// - Throws: `StaleOriginal` when they no longer hash to the trusted content hash.
    func originalBytes(of photo: Photo, _ original: inout Original) async throws -> Data {
        if let data = original.data { return data }
        let fetched = try await fetcher.fetchOriginal(photo.image)
        guard CacheKey.sha256(fetched.data) == original.hash else { throw StaleOriginal() }
        original.data = fetched.data
        return fetched.data
    }
}
