import Foundation
import GalleryFetch
import GalleryProviders

/// What a build did: counts, every skipped photo with its reason, and where the time went.
/// Written as JSON by `galleryssg build --report FILE`.
public struct BuildReport: Codable, Sendable {
    public struct Failure: Codable, Sendable, Equatable {
        /// The photo id, or the manifest position when the entry had no usable id.
        package var id: String
        /// The file path or URL of the original, when known.
        package var location: String?
        /// Where the photo failed: `manifest`, `fetch`, `imaging` or `write` (JSON: the step's name).
        package var stage: BuildStep
        /// The last HTTP status, for downloads that got a response.
        package var status: Int?
        package var reason: String
        /// For a file that is no image, its first bytes in hex: kept out of `reason`, which says
        /// what the file is in words, but here for whoever reads the report to dig further.
        package var firstBytes: String?
        /// True for a file of the library that is no photo or clip (a document, an unknown format): the
        /// summary counts it apart from the photos that failed. Absent for photos.
        package var otherFile: Bool?
        /// For a clip: what ffprobe or ffmpeg printed when it failed, kept out of `reason`, which
        /// says what is wrong in words (`ClipProblem`).
        package var toolOutput: String?

        package init(
            id: String, location: String?, stage: BuildStep, status: Int?, reason: String, firstBytes: String? = nil,
            otherFile: Bool = false, toolOutput: String? = nil
        ) {
            (self.id, self.location, self.stage, self.status, self.reason, self.firstBytes) = (
                id, location, stage, status, reason, firstBytes
            )
            self.otherFile = otherFile ? true : nil
            self.toolOutput = toolOutput
        }

        /// The line a build prints for it as a warning: `id (location): step: reason`.
        package var line: String {
            "\(id)\(location.map { " (\($0))" } ?? ""): \(stage): \(reason)"
        }
    }

    package var source: String = ""
    package var output: String = ""
    /// Entries in the manifest, including those that were skipped.
    package var photosInManifest = 0
    package var photosPublished = 0
    public var photosSkipped = 0
    /// Published photos that were not in the last build's state.
    package var photosNew = 0
    /// Published photos whose metadata, location or original bytes changed since the last build.
    package var photosChanged = 0
    package var photosUnchanged = 0
    /// Photos of the last build that are no longer in the manifest; their pages and files are gone.
    package var photosRemoved = 0
    package var pages = 0
    /// Pages rendered by this build; the others were linked from the page cache.
    package var pagesRendered = 0
    package var pagesReused = 0
    /// Image files in the site: derivatives (JPEG and WebP) and published originals.
    package var derivatives = 0
    /// Image files (derivatives and published originals) encoded or stored by this build.
    package var derivativesMade = 0
    /// Image files linked from the cache as they were.
    package var derivativesReused = 0
    /// Bytes this build newly encoded or rendered; reused files are linked, not written.
    var bytesWritten = 0
    /// Whether the build ran with `--offline` or `--rebuild`.
    package var offline = false
    package var forced = false
    package var failures: [Failure] = []
    /// Of `photosPublished`: the video clips, and the photos published with a motion (Live Photos, motion photos).
    package var clipsPublished = 0
    package var motionsPublished = 0
    /// Photos published despite a problem a browser also forgives (a JPEG with junk between
    /// markers, say): id, file, step and what was wrong. `build --strict` counts them as failures.
    public var warnings: [Failure] = []
    /// Files the source saw and left out on purpose (hidden and system files, sidecars and album
    /// indexes it read, photos hidden by their sidecar or album), each with its reason.
    package var ignored: [IgnoredFile] = []
    /// Why the build's site is empty, when the source gave no photo (and no entry it could not
    /// use): the folder or URL read and what to check. `build --strict` counts it as a failure.
    public var emptySource: String?
    /// Template tags that render as nothing: a partial that does not exist, a name no page model has,
    /// each with its template, line and column. `build --strict` counts them as failures.
    public var templateWarnings: [String] = []
    /// Network work for this build: requests (retries included), downloads, 304 reuses, 429/5xx answers.
    package var downloads = DownloadStats.Counts()
    /// Wall-clock seconds per pipeline step, in step order.
    package var stepSeconds: [BuildStep: Double] = [:]
    /// Seconds summed over all photos for the per-photo work inside the `images` step.
    var photoSeconds: [BuildStep: Double] = [:]
    /// Seconds the `pages` step spent making the search index (with `robots.txt` and the map's data);
    /// 0 when the pages were linked unchanged from the last build.
    var searchIndexSeconds = 0.0
    package var totalSeconds = 0.0
    /// Decoded pixels the build allowed in flight (`images.maxPixelsInFlight`, or worked out from memory).
    package var pixelBudget = 0
    /// The most photos decoded and encoded at once, and the most decoded pixels they held together.
    package var peakJobs = 0
    package var peakPixelsInFlight = 0
    /// For an images-only build (`build --images-only [--shard K/N]`): the slice it built as `K/N`,
    /// the photos of the manifest in that slice, and the learnt file it wrote to the cache.
    package var shard: String?
    package var photosInSlice: Int?
    package var learntFile: String?
    /// Learnt files of images-only builds that this build read from the cache.
    package var learntFilesRead = 0
    /// Learnt files left unread because the state already took them in as they are.
    package var learntFilesUnchanged = 0
    /// The published site measured against the host the build named (`deploy.host`, `build --host`):
    /// its files, largest file and bytes against the host's limits; nil when no host is named.
    public var host: HostFit?

    package init() {}

    /// The report as pretty, key-sorted JSON.
    public func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// One line for the terminal, such as
    /// `15 photos (1 new, 0 changed, 14 unchanged, 0 removed), 18 pages (3 changed), 60 images (4 made, 71 reused), 0 skipped, 2 ignored in 0.41 s`.
    /// An images-only build's line is
    /// `shard 2/4: 35 of 134 photos in this slice, 35 processed, 105 images (105 made, 0 reused), 0 skipped in 9.12 s`.
    public var summary: String {
        let time = String(format: "%.2f s", totalSeconds)
        let warnedItems = Set(warnings.map(\.id)).count
        let warned = warnings.isEmpty ? "" : ", \(warnedItems) with warnings"
        let others = failures.count { $0.otherFile == true }
        let skipped = "\(photosSkipped - others) skipped" + (others == 0 ? "" : ", \(Self.files(others)) not published")
        if let shard {
            return
                "shard \(shard): \(photosInSlice ?? 0) of \(photosInManifest) photos in this slice, \(photosPublished) processed, "
                + "\(derivatives) images (\(derivativesMade) made, \(derivativesReused) reused), \(skipped)\(warned) in \(time)"
        }
        let clips = clipsPublished == 0 ? "" : " and \(clipsPublished) clip\(clipsPublished == 1 ? "" : "s")"
        return
            "\(photosPublished - clipsPublished) photos\(clips) (\(photosNew) new, \(photosChanged) changed, \(photosUnchanged) unchanged, "
            + "\(photosRemoved) removed), \(pages) pages (\(pagesRendered) changed), \(derivatives) images "
            + "(\(derivativesMade) made, \(derivativesReused) reused), \(skipped)\(warned), "
            + "\(ignored.count) ignored in \(time)"
    }

    /// `1 other file`, `3 other files`: files of the library that are no photo or clip.
    private static func files(_ count: Int) -> String { "\(count) other file\(count == 1 ? "" : "s")" }

    /// The ignored files counted by reason, most common first: `3 sidecars read, 1 system file`.
    package var ignoredSummary: String {
        var counts: [IgnoredFile.Reason.Tally: Int] = [:]
        for file in ignored { counts[file.reason.tally, default: 0] += 1 }
        return counts.sorted { ($1.value, $0.key) < ($0.value, $1.key) }.map { $0.key.counted($0.value) }.joined(
            separator: ", ")
    }

    /// Counts the published photos of the `images` step.
    package mutating func count(_ outcome: PhotoPublisher.Outcome) {
        photosPublished = outcome.items.count
        clipsPublished = outcome.clips
        motionsPublished = outcome.motions
        derivatives += outcome.derivatives
        photosNew += outcome.tally.new
        photosChanged += outcome.tally.changed
        photosUnchanged += outcome.tally.unchanged
        derivativesMade += outcome.tally.made
        derivativesReused += outcome.tally.reused
        bytesWritten += outcome.tally.bytes
    }
}
