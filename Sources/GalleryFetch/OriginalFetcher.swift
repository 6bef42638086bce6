import Foundation
import GalleryModel

/// Reads each photo's original bytes, from disk or through the `Downloader`, with one size cap for both.
package struct OriginalFetcher: Sendable {
    package let downloader: Downloader
    package let maxBytes: Int

    package init(downloader: Downloader, maxBytes: Int) {
        self.downloader = downloader
        self.maxBytes = maxBytes
    }

    /// The original's bytes, with the server's validators for a download.
    /// - Throws: `FetchError` naming the file or URL.
    package func fetchOriginal(_ location: ImageLocation) async throws -> FetchedOriginal {
        switch location.resolved {
        case .remote(let url): return try await downloader.fetchOriginal(url)
        case .file(let url): return FetchedOriginal(data: try Self.readFile(url, maxBytes: maxBytes))
        }
    }

    /// Forgets the cached download of an original that no photo uses any more.
    package func forget(_ location: ImageLocation) {
        if let url = location.remoteURL { downloader.forget(url) }
    }

    static func readFile(_ url: URL, maxBytes: Int) throws -> Data {
        try checkSize(url, maxBytes: maxBytes)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw FetchError(file: url, "file could not be read; check its permissions")
        }
        return data
    }

    /// Throws unless `url` is there and holds at most `maxBytes`: what `readFile` checks before it
    /// reads, for readers that take a file a chunk at a time.
    package static func checkSize(_ url: URL, maxBytes: Int) throws {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: url.path)
        } catch {
            throw FetchError(file: url, "file not found or not readable")
        }
        if let size = attributes[.size] as? Int, size > maxBytes {
            throw FetchError(
                file: url, "file is \(size) bytes, over the \(maxBytes)-byte limit (network.maxDownloadBytes)")
        }
    }
}
