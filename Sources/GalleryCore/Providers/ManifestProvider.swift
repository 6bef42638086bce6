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
    /// The largest manifest accepted, in bytes: `network.maxDownloadBytes`, which the error names
    /// (a fixed 64 MB refused manifests of more than about 300,000 photos with no way round it).
    var maxBytes: Int { downloader?.transport.settings.maxDownloadBytes ?? SiteConfig.Defaults.maxDownloadBytes }

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
                data = try OriginalFetcher.readFile(url, maxBytes: maxBytes)
            } catch let error as FetchError {
                throw ProviderError.unreadable(name, "\(error.reason); check source.path in the config")
            }
            resolver = .folder(url.deletingLastPathComponent().standardizedFileURL)
        case .url(let url):
            name = url.absoluteString
            guard let downloader else { throw ProviderError.unreadable(name, "no downloader available") }
            let response: HTTPTransport.Response
            do {
                response = try await downloader.api(url, maxBytes: maxBytes)
            } catch let error as FetchError {
                throw ProviderError.unreadable(error.location, error.reason)
            }
            guard (200..<300).contains(response.status) else {
                throw ProviderError.unreadable(name, FetchError.status(response).reason)
            }
            data = response.body
            resolver = .base(response.url)
        }
        let decoder = JSONDecoder()
        decoder.userInfo[StreamedManifest.mapperKey] = ManifestEntryMapper(resolver: resolver)
        do {
            return try decoder.decode(StreamedManifest.self, from: data).manifest
        } catch let error as StreamedManifest.ShapeError {
            throw ProviderError.unreadable(name, error.reason)
        } catch {
            throw ProviderError.unreadable(name, "not valid JSON; a manifest is {\"photos\": [ … ]}")
        }
    }
}

/// A manifest document whose entries are mapped to photos as they are decoded, so the whole
/// document is never held as a `JSONValue` tree: at 100,000 photos that tree took about 100 MB.
/// The document is `{"photos": [ … ], "albums": { … }}` (`albums` optional) or just the array.
struct StreamedManifest: Decodable {
    static let mapperKey = CodingUserInfoKey(rawValue: "galleryssg.manifestMapper")!
    let manifest: Manifest

    /// The JSON is valid but not shaped like a manifest.
    struct ShapeError: Error {
        let reason: String
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        guard let mapper = decoder.userInfo[Self.mapperKey] as? ManifestEntryMapper else {
            preconditionFailure("StreamedManifest needs a ManifestEntryMapper in the decoder's userInfo")
        }
        var entries: any UnkeyedDecodingContainer
        var albums: JSONValue?
        if let array = try? decoder.unkeyedContainer() {
            entries = array
        } else if let object = try? decoder.container(keyedBy: Key.self) {
            guard let array = try? object.nestedUnkeyedContainer(forKey: Key(stringValue: "photos")) else {
                throw ShapeError(reason: "expected a \"photos\" array at the top level")
            }
            entries = array
            albums = try object.decodeIfPresent(JSONValue.self, forKey: Key(stringValue: "albums"))
        } else {
            let document = try decoder.singleValueContainer().decode(JSONValue.self)
            throw ShapeError(reason: "expected {\"photos\": [ … ]}, got \(document.kind)")
        }
        var collector = ManifestEntryMapper.Collector(mapper: mapper)
        while !entries.isAtEnd {
            // Entries are objects; decoding them as such first spares the guesses of `JSONValue`.
            if let object = try? entries.decode([String: JSONValue].self) {
                collector.add(.object(object))
            } else {
                collector.add(try entries.decode(JSONValue.self))
            }
        }
        var manifest = collector.manifest
        if let albums {
            let settings = ManifestEntryMapper.albums(albums)
            manifest.albums = settings.albums
            manifest.issues += settings.issues
        }
        self.manifest = manifest
    }
}
