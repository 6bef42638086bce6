import Foundation
import GalleryConfig
import GalleryOutput

/// A built site measured against a host's limits, as the host would receive it: the line a build
/// prints under its summary, what `build --report` holds, and where `check` and `deploy` start.
public struct HostFit: Codable, Sendable, Equatable {
    /// A dimension a host limits (`HostLimits`).
    public enum Limit: String, Codable, Sendable, CaseIterable {
        case files, fileBytes, totalBytes, filesPerFolder
    }

    /// A file over the host's size limit.
    public struct LargeFile: Codable, Sendable, Equatable {
        package var path: String
        package var bytes: Int
    }

    package var host: DeployHost
    /// For a host with plans (Cloudflare Pages), the plan measured against.
    package var plan: HostPlan?
    /// The files `deploy` would send (the site's marker is not one).
    package var files: Int
    package var totalBytes: Int
    var largestFile: String?
    var largestBytes: Int
    /// The folder holding the most files directly (`""` the root), and how many.
    package var busiestFolder: String
    package var busiestFolderFiles: Int
    /// The host's limits as `HostLimits.table` has them, with their sources and date.
    package var limits: HostLimits
    /// The dimensions the site is over, in `Limit` order; empty when it fits.
    public var over: [Limit] = []
    /// The files over `limits.fileBytes`, largest first.
    package var largeFiles: [LargeFile]

    /// Whether the host takes the site as it is.
    public var fits: Bool { over.isEmpty }

    /// `measure` against `choice`'s limits, or against `limits` where given (tests use small ones).
    package init(_ measure: SiteMeasure, choice: HostChoice, limits: HostLimits? = nil) {
        host = choice.host
        plan = choice.plan
        self.limits = limits ?? choice.limits
        files = measure.files.count
        totalBytes = measure.totalBytes
        largestFile = measure.largest?.path
        largestBytes = measure.largest?.bytes ?? 0
        busiestFolder = measure.busiestFolder
        busiestFolderFiles = measure.busiestFolderFiles
        let fileLimit = self.limits.fileBytes ?? .max
        largeFiles = measure.files.filter { $0.bytes > fileLimit }
            .sorted { ($0.bytes, $1.path) > ($1.bytes, $0.path) }
            .map { LargeFile(path: $0.path, bytes: $0.bytes) }
        let measured = self
        over = Limit.allCases.filter { limit in measured.limits[limit].map { measured[limit] > $0 } ?? false }
    }

    /// The site's figure in a dimension: files, the largest file's bytes, all bytes, the busiest folder's files.
    package subscript(_ limit: Limit) -> Int {
        switch limit {
        case .files: files
        case .fileBytes: largestBytes
        case .totalBytes: totalBytes
        case .filesPerFolder: busiestFolderFiles
        }
    }

    /// The choice measured against, for messages.
    package var choice: HostChoice { HostChoice(host: host, plan: plan) }
}

extension HostLimits {
    /// The limit in a dimension; nil where the host publishes none.
    package subscript(_ limit: HostFit.Limit) -> Int? {
        switch limit {
        case .files: files
        case .fileBytes: fileBytes
        case .totalBytes: totalBytes
        case .filesPerFolder: filesPerFolder
        }
    }
}

/// Measuring a built site against its host, for the CLI: `check`, `build --host`, `deploy`.
public enum HostCheck {
    /// The site in `config.output` measured against `choice`, and when it does not fit, what to change.
    /// - Parameters:
    ///   - advise: False leaves out what to change (`check` without a host, one line a host).
    ///   - limits: Other limits than the table's (tests).
    /// - Returns: nil when the output folder holds no built site.
    /// - Throws: `DeployError` when the site cannot be listed or a file cannot be read.
    public static func report(
        _ config: SiteConfig, _ choice: HostChoice, advise: Bool = true, limits: HostLimits? = nil
    ) throws -> HostReport? {
        guard Build.hasPublishedSite(config) else { return nil }
        let measure = try SiteMeasure.of(config.output)
        let fit = HostFit(measure, choice: choice, limits: limits)
        return HostReport(
            fit: fit, site: config.output.path, configFile: config.configFile.path,
            advice: fit.fits || !advise ? nil : HostAdvice(measure, fit: fit, config: config))
    }
}
