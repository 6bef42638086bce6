import Foundation

/// A source of photos: reads or fetches a whole manifest, following pages where there are any.
///
/// Local providers (folder, manifest) and the remote ones (Flickr, 500px, Parse) all map to `Photo`.
/// Entries that cannot be mapped are returned as `ManifestIssue`s so that one bad entry is reported
/// and skipped rather than failing the build.
public protocol PhotoProvider: Sendable {
    /// A short description for progress output, such as `folder Samples/photos`.
    var summary: String { get }
    /// Loads the manifest.
    /// - Throws: `ProviderError` when the manifest as a whole cannot be read.
    func fetchManifest() async throws -> Manifest
}

/// What a provider found: photos in source order, plus the entries it had to skip.
public struct Manifest: Sendable {
    public var photos: [Photo]
    public var issues: [ManifestIssue]

    public init(photos: [Photo], issues: [ManifestIssue] = []) {
        self.photos = photos
        self.issues = issues
    }
}

/// One manifest entry that was skipped, and why.
public struct ManifestIssue: Sendable, Equatable {
    /// The entry's id if it had a usable one, else its position such as `photos[3]`.
    public var item: String
    /// The file or URL the entry points at, when known.
    public var location: String?
    public var reason: String
}

/// A manifest that cannot be read at all.
public struct ProviderError: Error, CustomStringConvertible, Sendable {
    public let description: String

    static func unreadable(_ location: String, _ reason: String) -> ProviderError {
        ProviderError(description: "\(location): \(reason)")
    }
}
