import ArgumentParser
import Foundation
import GalleryPipeline

struct DeployCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deploy",
        abstract: "Publish the built site to an S3-compatible bucket or a folder, sending only what changed.",
        discussion: """
            TARGET is s3://bucket/prefix or file:///folder; without it, the config's "deploy" block names \
            one. S3 keys come from AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN.

            Files are compared by content (the object's MD5 ETag, or the SHA-256 stored in \
            x-amz-meta-sha256). New and changed images and other assets go first, then pages, then \
            objects the site no longer has are deleted, so a visitor never gets a page whose images \
            are missing. Cache-Control follows the site's _headers file.

            A site older than its config, templates or state (a build would change it) is refused, \
            naming what changed; --force deploys it anyway, with a warning. A file:// target folder \
            must be new, empty, or hold only what galleryssg deployed there.

            A site that does not fit its host (--host, the config's deploy.host, else the one the \
            target implies: s3:// S3, file:// a folder) is refused before anything is sent, with what \
            each change of settings saves; --force does not override it (docs/hosts.md).

            Exit status: 0 deployed (or planned, with --dry-run), 1 the deploy failed (what is online \
            is said) or was refused (an out-of-date site, one over its host's limits, a folder holding \
            other files), 2 bad config, arguments or missing keys.

            Examples:
              galleryssg deploy file:///tmp/gallery-copy
                  Copy the built site into a folder; later deploys send what changed.
              galleryssg deploy s3://my-photos/gallery --dry-run
                  List what would be uploaded and deleted, and change nothing.
              galleryssg deploy s3://photos --endpoint http://127.0.0.1:9000 --path-style
                  Deploy to a bucket on a MinIO (or other S3-compatible) server.
              galleryssg deploy file:///srv/pages --host cloudflare-pages
                  Copy the site into the folder Cloudflare Pages publishes, if it fits Pages' limits.
            """
    )

    @Argument(
        help: ArgumentHelp(
            "s3://bucket/prefix or file:///folder (default: the config's deploy.target).", valueName: "target"))
    var target: String?

    @OptionGroup var config: ConfigOption

    @Flag(help: "List what would be uploaded and deleted, and change nothing.")
    var dryRun = false

    @Flag(help: "Keep objects that the site no longer has.")
    var noDelete = false

    @Option(help: ArgumentHelp("An S3-compatible endpoint, such as https://minio.example:9000.", valueName: "url"))
    var endpoint: String?

    @Option(help: ArgumentHelp("The bucket's region (default us-east-1).", valueName: "region"))
    var region: String?

    @Flag(help: "Address the bucket as endpoint/bucket/key rather than bucket.endpoint/key.")
    var pathStyle = false

    @Flag(name: .shortAndLong, help: "Print a line for every file uploaded or deleted.")
    var verbose = false

    @Flag(help: "Deploy the built site even when it is older than its config, templates or state.")
    var force = false

    @OptionGroup var host: HostOption

    func run() async throws {
        let site = try loadSite(config.path)
        // Before any target is made (an S3 target holds connections that must be closed).
        if let stale = SiteFreshness.check(site) {
            if force || dryRun {
                Terminal.warning(stale.warning)
            } else {
                Terminal.error("\(stale)")
                throw ExitCode(1)
            }
        }
        let overrides = DeploySettings(
            target: target, endpoint: endpoint, region: region, pathStyle: pathStyle ? true : nil,
            host: host.namedHost, plan: host.namedPlan)
        try checkHost(site, overrides)
        let environment = ProcessInfo.processInfo.environment
        let credentials = Credentials(secrets: site.credentials.secrets + DeployDestination.secrets(in: environment))
        let redact: @Sendable (String) -> String = { credentials.redact($0) }
        let deployer: Deployer
        do {
            let destination = try site.deploy.resolve(over: overrides)
            let target = try destination.makeTarget(
                environment: environment, network: site.network,
                stateFolder: site.stateDirectory)
            let live = isatty(STDOUT_FILENO) == 1
            let verbose = self.verbose
            deployer = Deployer(
                target: target, site: site.output, delete: !noDelete, concurrency: site.network.connectionsPerHost,
                redact: redact, log: { Terminal.info($0) },
                progress: { done, total, line in
                    if verbose {
                        if live { Terminal.status("", final: true) }
                        Terminal.info(line)
                    }
                    if live { Terminal.status("deploy: \(done)/\(total)", final: done == total) }
                })
        } catch let problem as DeployDestination.Problem {
            Terminal.error(redact(problem.message) + " (see galleryssg deploy --help)")
            throw ExitCode(2)
        } catch {
            Terminal.error(redact("\(error)"))
            throw ExitCode(2)
        }
        Terminal.info(
            "deploying \(site.output.path) to \(redact(deployer.target.description))\(dryRun ? " (dry run)" : "")")
        do {
            let report = try await deployer.deploy(dryRun: dryRun)
            if dryRun {
                for line in report.plan.lines { Terminal.info(redact(line)) }
            }
            Terminal.info(
                "\(dryRun ? "planned" : "deployed") \(redact(deployer.target.description)): \(report.summary)")
        } catch {
            Terminal.error("deploy failed: \(redact("\(error)"))")
            throw ExitCode(1)
        }
    }

    /// Refuses, before any target is made, a site its host would refuse (`--host`, `deploy.host`, or
    /// the one the target implies); `--dry-run` warns instead. `--force` does not override it: the
    /// host would refuse the upload whatever galleryssg sends. Without a built site the deployer says so.
    private func checkHost(_ site: SiteConfig, _ overrides: DeploySettings) throws {
        // A folder has no limits: nothing to measure.
        guard let choice = site.deploy.host(over: overrides, implied: true), choice.host != .folder else { return }
        let report: HostReport?
        do {
            report = try HostCheck.report(site, choice)
        } catch {
            Terminal.error("deploy failed: \(error)")
            throw ExitCode(1)
        }
        guard let report, !report.fit.fits else { return }
        if dryRun {
            report.lines.forEach(Terminal.warning)
        } else {
            Terminal.error("\(report.refusal)")
            throw ExitCode(1)
        }
    }
}
