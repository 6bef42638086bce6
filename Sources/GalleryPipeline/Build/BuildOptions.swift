import Foundation
import GalleryConfig
import GalleryModel

/// Options of one build that are not part of the site's config.
public struct BuildOptions: Sendable {
    /// Photos processed at once; defaults to the number of cores.
    public var jobs: Int
    /// Ignore every cache: download, decode, encode and render everything again (`build --rebuild`).
    /// The results still refresh the caches.
    package var rebuild: Bool
    /// Take over an output folder that holds files galleryssg did not write, by moving them into a
    /// folder beside it (`build --force`); without it such a build is refused before any work.
    package var takeOver: Bool
    /// Build from the last fetched manifest and the cached originals, without the network
    /// (`build --offline`).
    package var offline: Bool
    /// Make only the derivatives of this slice of the photos, into the cache, and write what was
    /// learnt there for a later full build (`build --images-only [--shard K/N]`); nil builds the site.
    public var imagesOnly: Shard?
    /// The command line's `--host` and `--plan`, over the config's `deploy.host` and `deploy.plan`:
    /// a build that names a host measures the site it published against the host's limits
    /// (`BuildReport.host`).
    public var deploy = DeploySettings()
    /// Where `ffmpeg` and `ffprobe` are looked for: `PATH` unless set (tests set it to show a
    /// machine without them).
    package var toolPath: String? = ProcessInfo.processInfo.environment["PATH"]
    /// The last build's rows and pages read from the state per query (`PhotoRows.forEach`,
    /// `PagePublisher.linkPrevious`): tests make it small, so that a site of five photos spans
    /// many windows.
    package var readWindow = 4096

    public init(
        jobs: Int = ProcessInfo.processInfo.activeProcessorCount, rebuild: Bool = false, offline: Bool = false,
        imagesOnly: Shard? = nil, takeOver: Bool = false
    ) {
        self.jobs = max(1, jobs)
        self.rebuild = rebuild
        self.takeOver = takeOver
        self.offline = offline
        self.imagesOnly = imagesOnly
    }
}
