import Foundation

/// Photos listed in a galleryssg manifest: a JSON file on disk or at an http(s) URL.
///
/// The format is documented in README.md ("Manifest format"). Every entry is treated as hostile:
/// text is cleaned and capped, ids must be safe path components, and image paths must stay inside
/// the manifest's folder. An entry that breaks a rule is reported and skipped; the rest are kept.
public struct ManifestProvider: PhotoProvider {
    public enum Location: Sendable {
        case file(URL)
        case url(URL)
    }

    let location: Location
    let downloader: Downloader?
    /// The largest manifest accepted, in bytes.
    static let maxBytes = 64 * 1024 * 1024

    public init(location: Location, downloader: Downloader?) {
        self.location = location
        self.downloader = downloader
    }

    public var summary: String {
        switch location {
        case .file(let url): return "manifest \(url.path)"
        case .url(let url): return "manifest \(url.absoluteString)"
        }
    }

    public func fetchManifest() async throws -> Manifest {
        let data: Data
        let name: String
        let resolver: ManifestEntryMapper.ImageResolver
        switch location {
        case .file(let url):
            name = url.path
            do {
                data = try OriginalFetcher.readFile(url, maxBytes: Self.maxBytes)
            } catch let error as FetchError {
                throw ProviderError.unreadable(name, "\(error.reason); check source.path in the config")
            }
            resolver = .folder(url.deletingLastPathComponent().standardizedFileURL)
        case .url(let url):
            name = url.absoluteString
            guard let downloader else { throw ProviderError.unreadable(name, "no downloader available") }
            let response: HTTPTransport.Response
            do {
                response = try await downloader.api(url, maxBytes: Self.maxBytes)
            } catch let error as FetchError {
                throw ProviderError.unreadable(error.location, error.reason)
            }
            guard (200..<300).contains(response.status) else {
                throw ProviderError.unreadable(name, FetchError.status(response).reason)
            }
            data = response.body
            resolver = .base(response.url)
        }
        let document: JSONValue
        do {
            document = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ProviderError.unreadable(name, "not valid JSON; a manifest is {\"photos\": [ … ]}")
        }
        let entries: [JSONValue]
        switch document {
        case .array(let items): entries = items
        case .object(let object):
            guard case .array(let items)? = object["photos"] else {
                throw ProviderError.unreadable(name, "expected a \"photos\" array at the top level")
            }
            entries = items
        default:
            throw ProviderError.unreadable(name, "expected {\"photos\": [ … ]}, got \(document.kind)")
        }
        return ManifestEntryMapper(resolver: resolver).map(entries)
    }
}
