import Foundation
import GalleryConfig
import GalleryOutput
import GalleryPipeline
import Testing

/// The hosts' limits: the one table, docs/hosts.md saying the same, `deploy.host` and `deploy.plan`
/// in the config, and a site measured against limits.
@Suite("Host limits")
struct HostLimitsTests {
    static let file = URL(fileURLWithPath: "/sites/demo/site-config.json")

    static func load(_ deploy: String) throws -> SiteConfig {
        let json = #"{"source": {"type": "folder", "path": "photos"}, "deploy": "# + deploy + "}"
        return try SiteConfig.parse(Data(json.utf8), file: file, environment: [:])
    }

    /// Every host has a row, Cloudflare Pages one per plan, each with its sources and the day they were read.
    @Test func theTableHasEveryHostWithItsSources() {
        for host in DeployHost.allCases {
            let rows = HostLimits.table.filter { $0.host == host }
            #expect(rows.map(\.plan) == (host.hasPlans ? HostPlan.allCases : [nil]), "\(host)")
            for row in rows {
                #expect(row.limits.read == "2026-11-29")
                #expect(
                    host == .folder
                        ? row.limits.sources.isEmpty
                        : !row.limits.sources.isEmpty && row.limits.sources.allSatisfy { $0.hasPrefix("https://") },
                    "\(host)")
                let limits = [row.limits.files, row.limits.fileBytes, row.limits.totalBytes, row.limits.filesPerFolder]
                #expect((limits.allSatisfy { $0 == nil }) == (host == .folder), "\(host): only a folder has no limit")
            }
        }
        #expect(HostChoice(host: .cloudflarePages).limits.files == 20_000)
        #expect(HostChoice(host: .cloudflarePages, plan: .paid).limits.files == 100_000)
        #expect(HostChoice(host: .cloudflarePages).limits.fileBytes == 25 << 20)
        #expect(HostChoice(host: .githubPages).limits.totalBytes == 1 << 30)
        #expect(
            HostChoice(host: .netlify).limits.files == nil && HostChoice(host: .netlify).limits.filesPerFolder == 54_000
        )
        #expect(HostChoice.all.count == DeployHost.allCases.count + 1)
    }

    /// docs/hosts.md has a row per host and plan with the table's figures, in the words `check` uses.
    @Test func theManualHasTheTablesFigures() throws {
        let manual = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/hosts.md"), encoding: .utf8)
        for choice in HostChoice.all {
            let limits = choice.limits
            let none = choice.host == .folder ? "none" : "none published"
            let cells = [
                limits.files.map(Words.count), limits.fileBytes.map(Words.bytes), limits.totalBytes.map(Words.bytes),
                limits.filesPerFolder.map(Words.count)
            ].map { $0 ?? none }
            let row =
                "| `\(choice.host.rawValue)`\(choice.plan.map { " (\($0.rawValue))" } ?? "") | "
                + cells.joined(separator: " | ") + " |"
            #expect(manual.contains(row), "docs/hosts.md has no row \(row)")
        }
        for source in HostLimits.table.flatMap(\.limits.sources) {
            #expect(manual.contains(source), "docs/hosts.md does not cite \(source)")
        }
    }

    @Test func badHostsAndPlansNameTheirKeyAndTheChoices() throws {
        var error = try #require(throws: ConfigError.self) { try Self.load(#"{"host": "github-page"}"#) }
        #expect(
            error.message
                == #"deploy.host: "github-page" is not a host galleryssg knows the limits of; did you mean "github-pages"? "#
                + "(expected s3, github-pages, cloudflare-pages, netlify or folder; docs/hosts.md has their limits)")
        error = try #require(throws: ConfigError.self) { try Self.load(#"{"host": "vercel"}"#) }
        #expect(error.key == "deploy.host" && error.message.contains(#""vercel" is not a host galleryssg knows"#))
        #expect(!error.message.contains("did you mean"))
        error = try #require(throws: ConfigError.self) { try Self.load(#"{"plan": "pro"}"#) }
        #expect(
            error.key == "deploy.plan"
                && error.message.hasPrefix(#"deploy.plan: "pro" is not a plan (expected free or paid"#))
    }

    /// A named host wins; without one a `file://` target is a folder and `s3://` S3, for `deploy` and
    /// `check` only (`implied`); the plan counts only for Cloudflare Pages.
    @Test func theHostIsNamedOrImpliedByTheTarget() throws {
        let folder = try Self.load(#"{"target": "file:///srv/www"}"#).deploy
        #expect(folder.host(implied: true) == HostChoice(host: .folder))
        #expect(folder.host(implied: false) == nil)
        #expect(try Self.load(#"{"target": "s3://bucket/site"}"#).deploy.host(implied: true) == HostChoice(host: .s3))
        #expect(folder.host(over: DeploySettings(target: "S3://b/x"), implied: true)?.host == .s3)
        let named = try Self.load(#"{"target": "file:///srv/www", "host": "cloudflare-pages"}"#).deploy
        #expect(named.host(implied: false) == HostChoice(host: .cloudflarePages, plan: .free))
        #expect(named.host(over: DeploySettings(plan: .paid), implied: false)?.plan == .paid)
        #expect(
            named.host(over: DeploySettings(host: .netlify, plan: .paid), implied: false) == HostChoice(host: .netlify))
        #expect(try Self.load(#"{"plan": "paid"}"#).deploy.host(implied: true) == nil)
    }

    /// The site as a host receives it: the deploy's listing without the marker, its largest file
    /// and busiest folder; a site at a limit fits, one past it is over.
    @Test func aSiteIsMeasuredAsTheDeploySendsIt() async throws {
        let site = try await DeployFixtures.site(photos: Array(IncrementalFixtures.five.prefix(2)))
        let measure = try SiteMeasure.of(site.output)
        let files = site.outputFiles()
        #expect(measure.files.map(\.path) == files)
        #expect(FileManager.default.fileExists(atPath: site.output.appendingPathComponent(".galleryssg-site").path))
        let sizes = try files.map { try Data(contentsOf: site.output.appendingPathComponent($0)).count }
        #expect(measure.totalBytes == sizes.reduce(0, +))
        #expect(measure.largest?.bytes == sizes.max())
        let choice = HostChoice(host: .cloudflarePages)
        let exact = HostFit(
            measure, choice: choice, limits: HostLimits(files: files.count, totalBytes: measure.totalBytes))
        #expect(exact.fits)
        let over = HostFit(
            measure, choice: choice,
            limits: HostLimits(files: files.count - 1, fileBytes: sizes.max()! - 1, filesPerFolder: 1))
        #expect(over.over == [.files, .fileBytes, .filesPerFolder])
        #expect(over.largeFiles.count == sizes.count { $0 > sizes.max()! - 1 })
        #expect(over.line.hasPrefix("cloudflare-pages (free): \(Words.count(files.count)) files of "))
        #expect(over.line.contains(" — over by 1; largest "))
    }
}
