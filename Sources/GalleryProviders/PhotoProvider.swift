import Foundation
import GalleryModel

/// A source of photos: reads or fetches a whole manifest, following pages where there are any.
///
/// Local providers (folder, manifest) and the remote ones (Flickr, 500px, Parse) all map to `Photo`.
/// Entries that cannot be mapped are returned as `ManifestIssue`s so that one bad entry is reported
/// and skipped rather than failing the build.
package protocol PhotoProvider: Sendable {
    /// A short description for progress output, such as `folder Samples/photos`.
    var summary: String { get }
    /// Loads the manifest.
    /// - Throws: `ProviderError` when the manifest as a whole cannot be read.
    func fetchManifest() async throws -> Manifest
}

/// What a provider found: photos in source order, plus the entries it had to skip, what it knows
/// about albums, and the files it knowingly left out.
package struct Manifest: Sendable {
    package var photos: [Photo]
    package var issues: [ManifestIssue]
    /// Album settings by album path (`2024/Iceland`), for albums that have any.
    package var albums: [String: AlbumInfo]
    /// Files a folder source saw and left out on purpose (hidden files, sidecars, hidden photos).
    package var ignored: [IgnoredFile]
    /// Entries published despite a problem with what describes them (an unknown key in a sidecar or
    /// `index.md`): `item` is the photo id or the album index's path, `reason` names the file and line.
    package var warnings: [ManifestIssue] = []

    package init(
        photos: [Photo], issues: [ManifestIssue] = [], albums: [String: AlbumInfo] = [:],
        ignored: [IgnoredFile] = []
    ) {
        self.photos = photos
        self.issues = issues
        self.albums = albums
        self.ignored = ignored
    }
}

/// One manifest entry that was skipped, and why.
package struct ManifestIssue: Sendable, Equatable {
    /// The entry's id if it had a usable one, else its position such as `photos[3]`.
    package var item: String
    /// The file or URL the entry points at, when known.
    package var location: String?
    package var reason: String
    /// A file of the library that is no photo or clip (a document, an unknown format), not a photo
    /// that failed: the build's summary counts it apart.
    package var isFile = false

    package init(item: String, location: String?, reason: String, isFile: Bool = false) {
        (self.item, self.location, self.reason, self.isFile) = (item, location, reason, isFile)
    }
}

/// A manifest that cannot be read at all.
///
/// Callers that act on the problem switch on `kind`, never on the words.
package typealias ProviderError = KindedFailure<ProviderErrorKind>

/// What went wrong, for a `ProviderError`.
package enum ProviderErrorKind: Sendable, Equatable {
    /// The source's folder is not there, or is not a folder: `source.path` is wrong.
    case notFound
    /// The source is there but cannot be read (permissions, a size or entry cap).
    case unreadable
    /// A remote source did not answer, or answered with an HTTP error, even after retries.
    case unavailable
    /// A remote service refused the request: bad credentials, an unknown album or user.
    case refused
    /// The answer or the manifest is not what such a source gives (not JSON, the wrong shape).
    case malformed
}

extension ProviderError {
    package static func unreadable(_ location: String, _ reason: String, kind: Kind = .unreadable) -> ProviderError {
        ProviderError(kind, "\(location): \(reason)")
    }
}
