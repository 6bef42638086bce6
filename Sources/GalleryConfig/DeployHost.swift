import Foundation
import GalleryModel

/// The host that receives the built site (`deploy.host`, `--host`), whose published limits
/// `galleryssg check`, `build` and `deploy` hold the site to (`HostLimits`).
///
/// `galleryssg deploy` itself writes to an S3 bucket or a folder; a folder is often what another
/// tool then publishes (`wrangler pages deploy`, a `gh-pages` push, Netlify's publish folder), and
/// naming that host makes the deploy refuse a site the host would refuse, before anything is sent.
public enum DeployHost: String, CaseIterable, Sendable, Codable {
    case s3
    case githubPages = "github-pages"
    case cloudflarePages = "cloudflare-pages"
    case netlify
    case folder

    /// `s3, github-pages, cloudflare-pages, netlify or folder`, for messages.
    public static var choices: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names.last!
    }

    /// Whether the host's plans have different limits, so that `deploy.plan` matters.
    package var hasPlans: Bool { self == .cloudflarePages }

    /// Why `value` is no host, with the closest one: the words of `deploy.host` and `--host` alike.
    public static func unknown(_ value: String) -> String {
        let hint = Spelling.closest(to: value, among: allCases.map(\.rawValue)).map { "; did you mean \"\($0)\"?" }
        return "\(JSONValue.string(value).quoted) is not a host galleryssg knows the limits of\(hint ?? "") "
            + "(expected \(choices); docs/hosts.md has their limits)"
    }
}

/// The plan of a host whose plans have different limits (`deploy.plan`): only Cloudflare Pages'
/// do, 20,000 files a site on the Free plan and 100,000 on a Workers Paid plan.
public enum HostPlan: String, CaseIterable, Sendable, Codable {
    case free, paid

    /// `free or paid`, for messages.
    public static var choices: String { allCases.map(\.rawValue).joined(separator: " or ") }

    /// Why `value` is no plan: the words of `deploy.plan` and `--plan` alike.
    public static func unknown(_ value: String) -> String {
        "\(JSONValue.string(value).quoted) is not a plan (expected \(choices): "
            + "Cloudflare Pages takes 20,000 files a site on its Free plan, 100,000 on a Workers Paid plan)"
    }
}

/// A host with the plan whose limits apply: what `check`, `build` and `deploy` measure a site against.
public struct HostChoice: Sendable, Equatable {
    public var host: DeployHost
    /// The plan, for a host that has plans (`DeployHost.hasPlans`); nil for the others.
    public var plan: HostPlan?

    public init(host: DeployHost, plan: HostPlan? = nil) {
        self.host = host
        self.plan = host.hasPlans ? plan ?? SiteConfig.Defaults.hostPlan : nil
    }

    /// The host's limits, from the one table (`HostLimits.table`).
    package var limits: HostLimits { HostLimits.of(host, plan: plan) }

    /// `cloudflare-pages (free)`, `github-pages`.
    public var label: String { plan.map { "\(host.rawValue) (\($0.rawValue))" } ?? host.rawValue }

    /// Every host with each of its plans, in table order: what `check` without a host measures against.
    public static var all: [HostChoice] {
        DeployHost.allCases.flatMap { host in
            host.hasPlans ? HostPlan.allCases.map { HostChoice(host: host, plan: $0) } : [HostChoice(host: host)]
        }
    }
}

extension DeploySettings {
    /// The host the site goes to: `overrides`' (the command line's) over the config's `deploy.host`;
    /// with `implied`, else the one the target implies (`file://` a folder, `s3://` S3).
    /// - Returns: nil when no host is named (and, with `implied`, no target either).
    public func host(over overrides: DeploySettings = DeploySettings(), implied: Bool) -> HostChoice? {
        let plan = overrides.plan ?? plan
        if let named = overrides.host ?? host { return HostChoice(host: named, plan: plan) }
        guard implied, let target = (overrides.target ?? target)?.lowercased() else { return nil }
        if target.hasPrefix("file:") { return HostChoice(host: .folder) }
        if target.hasPrefix("s3:") { return HostChoice(host: .s3) }
        return nil
    }
}
