import Foundation
import GalleryConfig
import GalleryFetch
import GalleryModel

/// Albums of an Immich server: `GET /api/albums` to find them by id or name, then
/// `GET /api/albums/{id}` for each one's description, order and assets, whose originals are
/// `GET /api/assets/{id}/original`. Every request carries the API key as `x-api-key`.
///
/// Shapes follow Immich's OpenAPI document (`open-api/immich-openapi-specs.json`, version 1.112.1):
/// `AlbumResponseDto` and `AssetResponseDto`. Neither endpoint pages: an album's answer holds all
/// its assets. An album's `order` (`asc`/`desc` by date) becomes its `sort`.
package struct ImmichProvider: PhotoProvider {
    package let source: ImmichSource
    package let downloader: Downloader
    package let credentials: Credentials

    package init(source: ImmichSource, downloader: Downloader, credentials: Credentials) {
        self.source = source
        self.downloader = downloader
        self.credentials = credentials
    }

    package var summary: String { "immich \(source.server.host ?? "server")" }

    package func fetchManifest() async throws -> Manifest {
        let listed = try await call("albums").array ?? []
        var collector = ManifestCollector(limit: source.limit)
        var albums: [String: AlbumInfo] = [:]
        var names = Set<String>()
        for summary in try ImmichAlbums.pick(source.albums, from: listed) where !collector.isFull {
            let album = try await call("albums/\(summary.id)")
            let name = ImmichAlbums.uniqueName(album["albumName"]?.text ?? summary.name, taken: &names)
            albums[name] = ImmichAlbums.info(album)
            let assets = album["assets"]?.array ?? []
            let motions = Set(assets.compactMap { $0["livePhotoVideoId"]?.text })
            for (index, asset) in assets.enumerated() {
                let position = "album \(summary.id) assets[\(index)]"
                // A Live Photo's clip is its still's motion in Immich; it is never an item of its own.
                if let id = asset["id"]?.text, motions.contains(id) { continue }
                collector.add(
                    Result { try ImmichMapping(api: source.apiBase, album: name).photo(asset) }, position: position)
            }
        }
        var manifest = collector.manifest
        manifest.albums = albums
        return manifest
    }

    /// GETs `path` below `/api/` with the key and parses the JSON answer.
    /// - Throws: `ProviderError`: `.refused` for 401/403/404 (naming `apiKeyEnv`, never the key),
    ///   `.unavailable` for other statuses once retries are spent, `.malformed` for a body that is not JSON.
    private func call(_ path: String) async throws -> JSONValue {
        let url = source.apiBase.appendingPathComponent(path)
        let response = try await RemoteAPI.send(
            downloader, url, headers: [("x-api-key", source.apiKey), ("Accept", "application/json")],
            service: "immich", endpoint: source.server)
        guard (200..<300).contains(response.status) else {
            throw ImmichFailure(status: response.status, path: path, body: response.body, keyVariable: source.apiKeyEnv)
                .error
        }
        return try RemoteAPI.parse(response, service: "immich")
    }
}

/// An Immich answer other than 2xx, and the words a person can act on.
struct ImmichFailure {
    var status: Int
    var path: String
    var body: Data
    var keyVariable: String

    var error: ProviderError {
        let json = try? JSONValue.parseLenient(body)
        let message = (json?["message"]?.text ?? json?["error"]?.text).flatMap { UntrustedText.clean($0, max: 200) }
        let said = message.map { " (\($0))" } ?? ""
        switch status {
        case 401:
            return ProviderError(
                .refused,
                "immich: 401 Unauthorized\(said): the server refused the API key in \(keyVariable); "
                    + "check that \(keyVariable) holds a current key (Account Settings → API Keys)")
        case 403:
            return ProviderError(
                .refused,
                "immich: 403 Forbidden\(said) for /api/\(path): the key in \(keyVariable) lacks "
                    + "permission; give it album.read and asset.download (or all permissions)")
        case 400, 404:
            return ProviderError(
                .refused,
                "immich: \(status) for /api/\(path)\(said); check source.url (the server's address) "
                    + "and source.albums")
        default:
            return ProviderError(
                status >= 500 ? .unavailable : .refused, "immich: HTTP \(status) for /api/\(path)\(said)")
        }
    }
}
