import Foundation
import GalleryConfig
import GalleryFetch

/// Photos listed in a galleryssg manifest: a JSON file on disk or at an http(s) URL.
///
/// The format is documented in docs/remote-sources.md ("Manifest format"). Every entry is treated as hostile:
/// text is cleaned and capped, ids must be safe path components, and image paths must stay inside
/// the manifest's folder. An entry that breaks a rule is reported and skipped; the rest are kept.
/// The document is read entry by entry (`ManifestDocument`), a file a chunk at a time, so that
/// reading it costs about its photos, not a parse of all of it.
package struct ManifestProvider: PhotoProvider {
    package enum Location: Sendable {
        case file(URL)
        case url(URL)
    }

    package let location: Location
    package let downloader: Downloader?
    /// The largest manifest accepted, in bytes: `network.maxDownloadBytes`, which the error names
    /// (a fixed 64 MB refused manifests of more than about 300,000 photos with no way round it).
    package var maxBytes: Int {
        downloader?.transport.settings.maxDownloadBytes ?? SiteConfig.Defaults.maxDownloadBytes
    }

    package init(location: Location, downloader: Downloader?) {
        self.location = location
        self.downloader = downloader
    }

    package var summary: String {
        switch location {
        case .file(let url): return "manifest \(url.path)"
        case .url(let url): return "manifest \(url.absoluteString)"
        }
    }

    package func fetchManifest() async throws -> Manifest {
        switch location {
        case .file(let url):
            let handle: FileHandle
            do {
                try OriginalFetcher.checkSize(url, maxBytes: maxBytes)
                guard let opened = FileHandle(forReadingAtPath: url.path) else { throw Self.unreadable(url) }
                handle = opened
            } catch let error as FetchError {
                throw ProviderError.unreadable(url.path, "\(error.reason); check source.path in the config")
            }
            defer { try? handle.close() }
            let bytes = {
                do {
                    try handle.seek(toOffset: 0)
                } catch {
                    throw Self.unreadable(url)
                }
                return ManifestBytes.file(handle) { Self.unreadable(url) }
            }
            return try read(
                bytes, name: url.path,
                resolver: .folder(url.deletingLastPathComponent().standardizedFileURL))
        case .url(let url):
            guard let downloader else {
                throw ProviderError.unreadable(url.absoluteString, "no downloader available", kind: .unavailable)
            }
            let response: HTTPTransport.Response
            do {
                response = try await downloader.api(url, maxBytes: maxBytes)
            } catch let error as FetchError {
                throw ProviderError.unreadable(error.location, error.reason, kind: .unavailable)
            }
            guard (200..<300).contains(response.status) else {
                throw ProviderError.unreadable(
                    url.absoluteString, FetchError.status(response).reason, kind: .unavailable)
            }
            return try read({ .data(response.body) }, name: url.absoluteString, resolver: .base(response.url))
        }
    }

    /// The error for a manifest file that exists but cannot be read (a folder, say).
    private static func unreadable(_ url: URL) -> FetchError {
        FetchError(file: url, "file could not be read; check its permissions")
    }

    /// Reads the document `bytes()` gives, saying why one that is not a manifest cannot be used, and
    /// where one that is not JSON goes wrong (reading it a second time, from `bytes()` again).
    private func read(
        _ bytes: () throws -> ManifestBytes, name: String,
        resolver: ManifestEntryMapper.ImageResolver
    ) throws -> Manifest {
        do {
            return try ManifestDocument.read(bytes(), mapper: ManifestEntryMapper(resolver: resolver))
        } catch ManifestDocument.Failure.shape(let reason) {
            throw ProviderError.unreadable(name, reason, kind: .malformed)
        } catch ManifestDocument.Failure.invalidJSON(let offset) {
            guard let failure = try? ManifestDocument.locate(offset, in: bytes()) else {
                throw ProviderError.unreadable(
                    name, "not valid JSON, and it could not be read again to say where", kind: .malformed)
            }
            throw ProviderError.unreadable("\(name):\(failure.position)", failure.problem, kind: .malformed)
        } catch let error as FetchError {
            throw ProviderError.unreadable(name, "\(error.reason); check source.path in the config")
        } catch {
            throw ProviderError.unreadable(name, "not valid JSON; a manifest is {\"photos\": [ … ]}", kind: .malformed)
        }
    }
}
