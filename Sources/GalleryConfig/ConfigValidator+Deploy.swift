import Foundation

/// The config's `deploy` block: the defaults of `galleryssg deploy`, each overridable on the command line.
package struct DeploySettings: Sendable, Equatable {
    /// `s3://bucket/prefix` or `file:///folder`.
    package var target: String?
    /// An S3-compatible endpoint URL; AWS's regional endpoint when nil.
    package var endpoint: String?
    package var region: String?
    /// Address buckets as `endpoint/bucket/key` (MinIO, most self-hosted stores) instead of `bucket.endpoint/key`.
    package var pathStyle: Bool?

    package init(target: String? = nil, endpoint: String? = nil, region: String? = nil, pathStyle: Bool? = nil) {
        self.target = target
        self.endpoint = endpoint
        self.region = region
        self.pathStyle = pathStyle
    }

    /// These settings with `overrides`' non-nil values put over them, resolved.
    /// - Throws: `DeployDestination.Problem`; `.target` also when no target is given at all.
    package func resolve(over overrides: DeploySettings = DeploySettings()) throws -> DeployDestination {
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
    package func deploySettings(_ raw: SiteConfigFile.Deploy?) throws -> DeploySettings {
        guard let raw else { return DeploySettings() }
        let settings = DeploySettings(
            target: raw.target, endpoint: raw.endpoint, region: raw.region, pathStyle: raw.pathStyle)
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
