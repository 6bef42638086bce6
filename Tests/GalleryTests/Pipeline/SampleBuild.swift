import Foundation
import GalleryConfig
import GalleryPipeline

/// The repository's sample site, built once per test run from `site-config.json` into a temporary
/// folder and shared by the tests that only read it (a debug build of it takes minutes on 2 cores).
actor SampleBuild {
    static let shared = SampleBuild()

    private var build: Task<(config: SiteConfig, report: BuildReport), any Error>?

    /// The config (with `output` in the temporary folder) and the report of the one build.
    func site() async throws -> (config: SiteConfig, report: BuildReport) {
        if let build { return try await build.value }
        let task = Task { try await Self.build() }
        build = task
        return try await task.value
    }

    /// A build of its own of the sample, with its config changed by `adjust`, in a new temporary folder.
    static func build(_ adjust: @Sendable (inout SiteConfig) -> Void = { _ in }) async throws -> (
        config: SiteConfig, report: BuildReport
    ) {
        var config = try SiteConfig.load(
            from: Fixtures.repository.appendingPathComponent("site-config.json"), environment: [:])
        adjust(&config)
        let folder = try Fixtures.temporaryFolder()
        config.output = folder.appendingPathComponent("public")
        config.stateDirectory = folder.appendingPathComponent("state")
        let report = try await Build(config: config, options: BuildOptions(jobs: 2)).run()
        return (config, report)
    }
}
