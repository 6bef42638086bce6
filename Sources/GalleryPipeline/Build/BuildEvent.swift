import Foundation

/// What a build tells its caller as it goes, one value per line of progress.
///
/// Callers switch on the kind (the CLI prints skipped photos and warnings on stderr, the preview
/// server shows only skipped photos) instead of reading a line's first word.
public enum BuildEvent: Sendable, Equatable {
    /// A step's summary: `manifest: 120 photos from …`, `pages: 43 pages (…)`.
    case step(String)
    /// A photo left out of the site: its id, location, step and reason.
    case skipped(String)
    /// A file of the library that is no photo or clip (a document, an unknown format): its path,
    /// location and reason. Not a photo that failed, so not called skipped.
    case notPublished(String)
    /// A problem that left the photo or the build standing: a photo's metadata, a shard's cache.
    case warning(String)

    /// The event as one line of the build's log: `skipped …` and `warning …` say their kind.
    public var line: String {
        switch self {
        case .step(let text): text
        case .skipped(let text): "skipped \(text)"
        case .notPublished(let text): "not published \(text)"
        case .warning(let text): "warning \(text)"
        }
    }

    /// The same event with its text passed through `transform` (the build redacts credentials).
    func mapText(_ transform: (String) -> String) -> BuildEvent {
        switch self {
        case .step(let text): .step(transform(text))
        case .skipped(let text): .skipped(transform(text))
        case .notPublished(let text): .notPublished(transform(text))
        case .warning(let text): .warning(transform(text))
        }
    }
}
