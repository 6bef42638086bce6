import Foundation
import GalleryKeys
import GalleryModel

/// Downloaded originals on disk, keyed by the SHA-256 of their URL, with the validators needed to
/// revalidate them (`ETag`, `Last-Modified`).
///
/// Each entry is `<key>.bin` (the bytes) plus `<key>.json` (URL, validators, size, SHA-256 of the
/// bytes). An entry whose metadata or bytes do not check out is treated as a miss.
package struct DownloadCache: Sendable {
    package let folder: URL

    package struct Entry: Codable, Sendable {
        package var url: String
        package var etag: String?
        package var lastModified: String?
        package var size: Int
        package var sha256: Digest

        package init(url: String, etag: String? = nil, lastModified: String? = nil, size: Int, sha256: Digest) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.size = size
            self.sha256 = sha256
        }
    }

    package init(folder: URL) {
        self.folder = folder
    }

    package static func key(_ url: URL) -> String { CacheKey.sha256(Data(url.absoluteString.utf8)).hex }

    /// The cached entry and bytes for `url`, if present and intact.
    package func lookup(_ url: URL) -> (entry: Entry, data: Data)? {
        let key = Self.key(url)
        guard let meta = FileManager.default.contents(atPath: folder.appendingPathComponent("\(key).json").path),
            let entry = try? JSONDecoder().decode(Entry.self, from: meta), entry.url == url.absoluteString,
            let data = FileManager.default.contents(atPath: folder.appendingPathComponent("\(key).bin").path),
            data.count == entry.size, CacheKey.sha256(data) == entry.sha256
        else { return nil }
        return (entry, data)
    }

    /// Removes the entry for `url`, if there is one.
    package func remove(_ url: URL) {
        let key = Self.key(url)
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(key).json"))
        try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(key).bin"))
    }

    /// Stores bytes with their validators. Failures only cost a future cache miss, so they are ignored.
    package func store(_ url: URL, data: Data, etag: String?, lastModified: String?) {
        let key = Self.key(url)
        let entry = Entry(
            url: url.absoluteString, etag: etag, lastModified: lastModified, size: data.count,
            sha256: CacheKey.sha256(data))
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try AtomicFile.write(data, to: folder.appendingPathComponent("\(key).bin").path)
            try AtomicFile.write(try JSONEncoder().encode(entry), to: folder.appendingPathComponent("\(key).json").path)
        } catch {
            try? FileManager.default.removeItem(at: folder.appendingPathComponent("\(key).json"))
        }
    }
}
