import Foundation
import GalleryConfig
import GalleryModel

/// Publishes a built site to a `DeployTarget` in three steps, each named in progress and errors:
///
/// 1. `assets`  upload new and changed images, stylesheets, scripts and search shards
/// 2. `pages`   upload new and changed pages, feeds, the sitemap and the search index
/// 3. `delete`  remove what the new site no longer has (skipped with `--no-delete`)
///
/// A step starts only when the one before it has fully succeeded. A failure during `assets` leaves
/// the old pages online, with some extra files beside them; a failure during `pages` leaves a mix of
/// old and new pages, each of which finds its images. Nothing is deleted until every page is new.
public struct Deployer: Sendable {
    public let target: any DeployTarget
    /// The built site's folder (the config's `output`).
    package let site: URL
    package let delete: Bool
    /// Uploads in flight at once.
    package let concurrency: Int
    package let redact: @Sendable (String) -> String
    package let log: @Sendable (String) -> Void
    package let progress: @Sendable (_ done: Int, _ total: Int, _ line: String) -> Void

    /// - Parameters:
    ///   - redact: Applied to every line and error this deployer lets out (`Credentials.redact`).
    ///   - log: One line per step.
    ///   - progress: After each file sent (and after the deletions): files handled so far, in all, and
    ///     a line saying what was done (`+ new`, `~ changed`, `- deleted`), for a live counter or a log.
    public init(
        target: any DeployTarget, site: URL, delete: Bool = true,
        concurrency: Int = SiteConfig.Defaults.connectionsPerHost,
        redact: @escaping @Sendable (String) -> String = { $0 },
        log: @escaping @Sendable (String) -> Void = { _ in },
        progress: @escaping @Sendable (Int, Int, String) -> Void = { _, _, _ in }
    ) {
        self.target = target
        self.site = site
        self.delete = delete
        self.concurrency = max(1, concurrency)
        self.redact = redact
        self.log = { log(redact($0)) }
        self.progress = { progress($0, $1, redact($2)) }
    }

    /// Reads the site and lists the target.
    /// - Throws: `DeployError`, redacted.
    package func plan() async throws -> DeployPlan {
        do {
            let files = try LocalSite.scan(site)
            let remote = try await target.list()
            return DeployPlan(site: files, remote: remote, delete: delete)
        } catch {
            throw redacted(error)
        }
    }

    /// Carries out `plan`, step by step.
    /// - Returns: What was sent and deleted.
    /// - Throws: `DeployError` naming the step that failed and what that leaves online, redacted.
    package func run(_ plan: DeployPlan) async throws -> DeployReport {
        var report = DeployReport(plan: plan)
        let total = plan.uploads.count + plan.deletions.count
        do {
            log("assets: \(plan.assets.count) to upload (\(ByteCount.text(plan.assets.reduce(0) { $0 + $1.size })))")
            try await upload(plan.assets, done: 0, total: total, into: &report)
        } catch {
            throw redacted(
                DeployError.stopped(
                    after: error,
                    "stopped in step assets, before any page was replaced "
                        + "and before any deletion; the pages online are still the previous ones"))
        }
        do {
            log("pages: \(plan.pages.count) to upload (\(ByteCount.text(plan.pages.reduce(0) { $0 + $1.size })))")
            try await upload(plan.pages, done: plan.assets.count, total: total, into: &report)
        } catch {
            throw redacted(
                DeployError.stopped(
                    after: error,
                    "stopped in step pages, before any deletion; every page "
                        + "online, old or new, finds its images; deploy again to finish"))
        }
        guard !plan.deletions.isEmpty else {
            try await recordHeld(plan)
            return report
        }
        do {
            log("delete: \(plan.deletions.count) objects the site no longer has")
            try await target.delete(plan.deletions)
            report.deleted = plan.deletions.count
            progress(total, total, plan.deletions.map { "- \($0)" }.joined(separator: "\n"))
        } catch {
            throw redacted(
                DeployError.stopped(
                    after: error,
                    "stopped in step delete; every page is new, some old "
                        + "files were left; deploy again to remove them"))
        }
        try await recordHeld(plan)
        return report
    }

    private func recordHeld(_ plan: DeployPlan) async throws {
        do {
            try await target.finished(holding: plan.heldAfter)
        } catch {
            throw redacted(error)
        }
    }

    /// Plans, and unless `dryRun`, runs the plan; the target is closed either way.
    public func deploy(dryRun: Bool = false) async throws -> DeployReport {
        do {
            let plan = try await self.plan()
            var report = dryRun ? DeployReport(plan: plan, dryRun: true) : try await run(plan)
            report.traffic = target.traffic
            await target.close()
            return report
        } catch {
            await target.close()
            throw error
        }
    }

    /// Uploads `files` with at most `concurrency` in flight; the first failure stops the rest.
    private func upload(_ files: [LocalFile], done: Int, total: Int, into report: inout DeployReport) async throws {
        let target = self.target
        var sent = done
        try await withThrowingTaskGroup(of: LocalFile.self) { group in
            var next = 0
            func start() {
                guard next < files.count else { return }
                let file = files[next]
                next += 1
                group.addTask {
                    try await target.put(file)
                    return file
                }
            }
            for _ in 0..<concurrency { start() }
            while let file = try await group.next() {
                report.uploaded += 1
                report.uploadedBytes += file.size
                sent += 1
                progress(sent, total, "\(report.plan.replaced.contains(file.key) ? "~" : "+") \(file.key)")
                start()
            }
        }
    }

    private func redacted(_ error: Error) -> Error {
        let deployError = error as? DeployError ?? DeployError.request(target.description, "\(error)")
        return deployError.mapText(redact)
    }
}

/// What a deploy did (or, dry, would do).
public struct DeployReport: Sendable, Equatable {
    public var plan: DeployPlan
    package var dryRun = false
    package var uploaded = 0
    package var uploadedBytes = 0
    package var deleted = 0
    /// Retries and throttling on the way (`DeployTarget.traffic`).
    package var traffic = DeployTraffic()

    /// `12 uploaded (3.4 MB), 2 deleted, 140 unchanged`, or for a dry run what would be; then, when
    /// requests were retried, `; 9 retries (6 throttled, down to 1 request at a time)`.
    public var summary: String {
        let done =
            dryRun
            ? "would upload \(plan.uploads.count) (\(ByteCount.text(plan.uploadBytes))), "
                + "delete \(plan.deletions.count), \(plan.unchanged) unchanged"
            : "\(uploaded) uploaded (\(ByteCount.text(uploadedBytes))), \(deleted) deleted, \(plan.unchanged) unchanged"
        return done + Self.retryText(traffic)
    }

    /// `; 9 retries (6 throttled, down to 1 request at a time)`, or nothing without retries.
    private static func retryText(_ traffic: DeployTraffic) -> String {
        guard traffic.retries > 0 else { return "" }
        var details: [String] = []
        if traffic.throttles > 0 { details.append("\(traffic.throttles) throttled") }
        if let lowest = traffic.lowestConcurrency, traffic.throttles > 0 {
            details.append("down to \(lowest) \(lowest == 1 ? "request" : "requests") at a time")
        }
        return "; \(traffic.retries) \(traffic.retries == 1 ? "retry" : "retries")"
            + (details.isEmpty ? "" : " (\(details.joined(separator: ", ")))")
    }
}
