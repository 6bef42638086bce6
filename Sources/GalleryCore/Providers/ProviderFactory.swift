/// Picks the provider a config's `source` names.
public enum ProviderFactory {
    public static func provider(for source: SourceConfig, transport: HTTPTransport) -> any PhotoProvider {
        switch source {
        case .folder(let folder): return FolderProvider(folder: folder)
        case .manifestFile(let file): return ManifestProvider(location: .file(file), transport: transport)
        case .manifestURL(let url): return ManifestProvider(location: .url(url), transport: transport)
        }
    }
}
