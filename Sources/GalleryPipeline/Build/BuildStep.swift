import Foundation
import GalleryImaging

/// The named steps of a build, in the order `Build` runs them, and the per-photo steps inside
/// `images`. The name is what progress lines, errors and the JSON report (its failures' `stage`,
/// the keys of `stepSeconds` and `photoSeconds`) show.
package enum BuildStep: String, Codable, CodingKeyRepresentable, Sendable, CaseIterable, CustomStringConvertible {
    /// Take the site's state lock.
    case lock
    /// Load the built-in templates and the site's overrides.
    case theme
    /// Open the state database and load what the last build left; at the end, save this build's changes.
    case state
    /// Ask the provider for the photo list (entries it cannot use fail here).
    case manifest
    /// Start the staging folder beside the output.
    case output
    /// Per photo: fetch, imaging, write.
    case images
    /// Zip the albums whose `download` is `album` (or link their unchanged zips from the cache).
    case downloads
    /// Work out, render and stage every page.
    case pages
    /// Stage the theme's static files.
    case `static`
    /// Encrypt protected albums' staged files (`AlbumSealer`).
    case seal
    /// Swap the staged site in.
    case publish
    /// Images-only builds (`--images-only`): write what was learnt into the cache's `learnt/` folder.
    case learnt
    /// Inside `images`: read or download the original.
    case fetch
    /// Inside `images`: read the original's headers, plan, decode and encode its derivatives.
    case imaging
    /// Inside `images`: store derivatives and link them into the staging folder.
    case write
    /// Inside `imaging`, timed only: decode the original, resize it to each derivative, encode them.
    case decode, resize, encode
    /// Inside `imaging`, timed only: a clip's poster frame and its web file (ffmpeg).
    case poster, video
    /// Anything outside the steps above (an error the build did not expect).
    case build

    package var description: String { rawValue }

    /// The step an image's render timed (`ImageProcessor`'s `seconds`).
    init(_ phase: ImagingPhase) {
        switch phase {
        case .decode: self = .decode
        case .resize: self = .resize
        case .encode: self = .encode
        }
    }
}

/// Why a build stopped: the step, the item it was working on (a photo id, path or URL) when there
/// was one, and the underlying error. The previous site is always left in place.
///
/// Like Publish's `PublishingError`, the description reads `step: item: reason`, and the error that
/// caused it is kept for callers that want to look at it (`underlying`).
package struct BuildError: Error, CustomStringConvertible, Sendable {
    package let step: BuildStep
    /// The photo id, file path or URL the step was working on, when the error concerns one item.
    package let item: String?
    /// The error that stopped the step; nil when the build itself decided to stop.
    package let underlying: (any Error & Sendable)?
    /// The reason as the user reads it (credentials redacted).
    package let reason: String

    package var description: String {
        "\(step): " + (item.map { "\($0): " } ?? "") + reason
    }

    package init(step: BuildStep, item: String? = nil, _ reason: String) {
        self.step = step
        self.item = item
        self.underlying = nil
        self.reason = reason
    }

    package init(step: BuildStep, item: String? = nil, underlying: any Error & Sendable) {
        self.step = step
        self.item = item
        self.underlying = underlying
        self.reason = "\(underlying)"
    }

    /// `error` as a step's error: a `BuildError` as it is (it already names its step), any other
    /// wrapped in one that names `step`.
    package static func at(_ step: BuildStep, _ error: any Error) -> BuildError {
        error as? BuildError ?? BuildError(step: step, underlying: error)
    }

    /// The same error with its reason (and item) passed through `transform`, such as redaction.
    package func mapText(_ transform: (String) -> String) -> BuildError {
        BuildError(step: step, item: item.map(transform), underlying: underlying, reason: transform(reason))
    }

    private init(step: BuildStep, item: String?, underlying: (any Error & Sendable)?, reason: String) {
        self.step = step
        self.item = item
        self.underlying = underlying
        self.reason = reason
    }
}
