import Foundation
import GalleryModel

extension RemoteSourceValidator {
    /// `{"type": "immich", "url": …, "apiKeyEnv": …, "albums": […]}`: the server, the variable holding
    /// the API key (read now, so a missing key stops the build before any request), and the albums.
    /// - Throws: `ConfigError` naming `source.url`, `source.apiKeyEnv` or `source.albums[i]`.
    package func immich(_ source: SiteConfigFile.Source) throws -> SourceConfig {
        let file = validator.name
        guard let address = source.url else {
            throw ConfigError(
                file: file, key: "source.url",
                "missing; give the Immich server's address, e.g. \"url\": \"https://photos.example.com\"")
        }
        guard var server = URL(string: address), let scheme = server.scheme?.lowercased(),
            ["http", "https"].contains(scheme), server.host != nil, server.query == nil
        else {
            throw ConfigError(
                file: file, key: "source.url", "\(JSONValue.string(address).quoted) is not an http(s) URL")
        }
        // `https://host/api` and `https://host/` name the same server: the provider adds `/api` itself.
        var path = server.path
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix("/api") { path.removeLast(4) }
        var components = URLComponents(url: server, resolvingAgainstBaseURL: false)!
        components.path = path + "/"
        server = components.url!
        guard let variable = source.apiKeyEnv, EnvironmentName.isValid(variable) else {
            throw ConfigError(
                file: file, key: "source.apiKeyEnv",
                source.apiKeyEnv.map { "\(JSONValue.string($0).quoted) is not an environment variable name" }
                    ?? "missing; name the environment variable that holds an Immich API key, "
                    + "e.g. \"apiKeyEnv\": \"IMMICH_API_KEY\" (make a key under Account Settings → API Keys)")
        }
        guard let key = validator.environment[variable], !key.isEmpty else {
            throw ConfigError(
                file: file, key: "source.apiKeyEnv",
                "environment variable \(variable) is not set or empty; export \(variable)=<an Immich API key> "
                    + "(Account Settings → API Keys) before running galleryssg")
        }
        var albums: [String] = []
        for (index, album) in (source.albums ?? []).enumerated() {
            guard let clean = UntrustedText.clean(album, max: 200), !clean.contains("\n") else {
                throw ConfigError(
                    file: file, key: "source.albums[\(index)]",
                    "\(JSONValue.string(album).quoted) is not an album id or name; give one on a single line")
            }
            if !albums.contains(clean) { albums.append(clean) }
        }
        let limit = try source.limit.map { try validator.range($0, "source.limit", 1...1_000_000) }
        return .immich(ImmichSource(server: server, apiKey: key, apiKeyEnv: variable, albums: albums, limit: limit))
    }
}
