import ArgumentParser
import GalleryPipeline

/// `--host HOST` and `--plan PLAN`, as `build`, `check` and `deploy` take them
/// (`@OptionGroup var host`): the host that receives the site, whose limits apply, over the config's
/// `deploy.host` and `deploy.plan`.
struct HostOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The host that receives the site, whose limits apply: \(DeployHost.choices) (default: the config's deploy.host).",
            valueName: "host"))
    var host: String?

    @Option(
        help: ArgumentHelp(
            "Cloudflare Pages' plan: free (20,000 files a site) or paid (100,000) (default: deploy.plan, else free).",
            valueName: "plan"))
    var plan: String?

    /// An unknown host or plan exits with status 2, as bad arguments do.
    func validate() throws {
        if let host, DeployHost(rawValue: host) == nil {
            Terminal.error("--host: \(DeployHost.unknown(host))")
            throw ExitCode(2)
        }
        if let plan, HostPlan(rawValue: plan) == nil {
            Terminal.error("--plan: \(HostPlan.unknown(plan))")
            throw ExitCode(2)
        }
    }

    /// `--host`, checked by `validate`.
    var namedHost: DeployHost? { host.flatMap(DeployHost.init(rawValue:)) }
    /// `--plan`, checked by `validate`.
    var namedPlan: HostPlan? { plan.flatMap(HostPlan.init(rawValue:)) }

    /// The options as settings to put over the config's `deploy` block.
    var settings: DeploySettings { DeploySettings(host: namedHost, plan: namedPlan) }
}
