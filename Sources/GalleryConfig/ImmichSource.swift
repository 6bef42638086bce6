import Foundation

/// `{"type": "immich", …}`: albums of a self-hosted Immich server, read through its REST API with an
/// API key taken from the environment variable `apiKeyEnv` (sent as `x-api-key`, never put in a URL).
public struct ImmichSource: Sendable, Equatable {
    /// The server's address without `/api`, such as `https://photos.example.com/`.
    package var server: URL
    /// The key itself, read from `apiKeyEnv` when the config was loaded; a secret (`Credentials`).
    package var apiKey: String
    /// The environment variable the key came from, named in errors instead of the key.
    package var apiKeyEnv: String
    /// Album ids or names, in the order the site lists them; empty means every album the key can see.
    package var albums: [String]
    package var limit: Int?

    /// The API root, `{server}/api/`: every endpoint and original hangs below it.
    package var apiBase: URL { server.appendingPathComponent("api", isDirectory: true) }

    package init(server: URL, apiKey: String, apiKeyEnv: String, albums: [String], limit: Int? = nil) {
        self.server = server
        self.apiKey = apiKey
        self.apiKeyEnv = apiKeyEnv
        self.albums = albums
        self.limit = limit
    }
}
