import Foundation

/// The config's `deploy` block: the defaults of `galleryssg deploy`, each overridable on the command line.
public struct DeploySettings: Sendable, Equatable {
    /// `s3://bucket/prefix` or `file:///folder`.
    package var target: String?
    /// An S3-compatible endpoint URL; AWS's regional endpoint when nil.
    package var endpoint: String?
    package var region: String?
    /// Address buckets as `endpoint/bucket/key` (MinIO, most self-hosted stores) instead of `bucket.endpoint/key`.
    package var pathStyle: Bool?
    /// The host that receives the site, whose limits a deploy keeps (`deploy.host`, `--host`).
    package var host: DeployHost?
    /// The host's plan, where its plans have other limits (`deploy.plan`, `--plan`).
    package var plan: HostPlan?

    public init(
        target: String? = nil, endpoint: String? = nil, region: String? = nil, pathStyle: Bool? = nil,
        host: DeployHost? = nil, plan: HostPlan? = nil
    ) {
        self.target = target
        self.endpoint = endpoint
        self.region = region
        self.pathStyle = pathStyle
        self.host = host
        self.plan = plan
    }

    /// These settings with `overrides`' non-nil values put over them, resolved.
    /// - Throws: `DeployDestination.Problem`; `.target` also when no target is given at all.
    public func resolve(over overrides: DeploySettings = DeploySettings()) throws -> DeployDestination {
        guard let target = overrides.target ?? target else {
            throw DeployDestination.Problem.target(
                "no target; give one such as s3://bucket/prefix or file:///srv/www, "
                    + "or set \"deploy\": {\"target\": …} in the config")
        }
        return try DeployDestination.parse(
            target, endpoint: overrides.endpoint ?? endpoint, region: overrides.region ?? region,
            pathStyle: overrides.pathStyle ?? pathStyle ?? false)
    }
}

extension ConfigValidator {
    /// Checks each value of `deploy` the way the command will read it, naming the key that is wrong.
    func deploySettings(_ raw: SiteConfigFile.Deploy?) throws -> DeploySettings {
        guard let raw else { return DeploySettings() }
        var settings = DeploySettings(
            target: raw.target, endpoint: raw.endpoint, region: raw.region, pathStyle: raw.pathStyle)
        if let host = raw.host {
            guard let known = DeployHost(rawValue: host) else {
                throw ConfigError(file: name, key: "deploy.host", DeployHost.unknown(host))
            }
            settings.host = known
        }
        if let plan = raw.plan {
            guard let known = HostPlan(rawValue: plan) else {
                throw ConfigError(file: name, key: "deploy.plan", HostPlan.unknown(plan))
            }
            settings.plan = known
        }
        do {
            // Without a target the endpoint and region are still checked, against a stand-in bucket.
            _ = try DeploySettings(target: raw.target ?? "s3://bucket").resolve(over: settings)
        } catch let problem as DeployDestination.Problem {
            let key: String
            switch problem {
            case .target: key = "deploy.target"
            case .endpoint: key = "deploy.endpoint"
            case .region: key = "deploy.region"
            }
            throw ConfigError(file: name, key: key, problem.message)
        }
        return settings
    }
}
