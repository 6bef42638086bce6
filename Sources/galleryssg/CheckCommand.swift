import ArgumentParser
import Foundation
import GalleryPipeline

/// `galleryssg check`: the built site against its host's limits, without building.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Measure the built site against its host's limits (files, file size, bytes) without building.",
        discussion: """
            The site measured is what galleryssg deploy would send: every file of the output folder but \
            the site's marker. The host comes from --host, else the config's deploy.host, and Cloudflare \
            Pages' plan from --plan, else deploy.plan (free by default); without a host the site is \
            measured against every host, a line each. When the site does not fit, the report says what \
            each change of settings saves, counted from the built files, and which change (or which \
            together) is enough. The limits, their sources and when they were read: docs/hosts.md.

            Exit status: 0 the site fits (or no host was named), 1 it does not fit (or could not be read), \
            2 bad config or arguments, or no built site.

            Examples:
              galleryssg check --host cloudflare-pages
                  Does the site fit Cloudflare Pages' Free plan (20,000 files, 25 MiB a file)?
              galleryssg check --host cloudflare-pages --plan paid
                  The same on a Workers Paid plan (100,000 files).
              galleryssg check
                  The site against every host, one line each.
            """
    )

    @OptionGroup var config: ConfigOption
    @OptionGroup var host: HostOption

    func run() throws {
        let site = try loadSite(config.path)
        guard Build.hasPublishedSite(site) else {
            let option = config.path == SiteConfig.Defaults.fileName ? "" : " --config \(config.path)"
            Terminal.error("no built site in \(site.output.path); run galleryssg build\(option) first")
            throw ExitCode(2)
        }
        if let stale = SiteFreshness.check(site) { Terminal.warning(stale.measuring) }
        let named = site.deploy.host(over: host.settings, implied: false)
        var fits = true
        do {
            for choice in named.map({ [$0] }) ?? HostChoice.all {
                guard let report = try HostCheck.report(site, choice, advise: named != nil) else {
                    throw ExitCode(2)
                }
                fits = fits && report.fit.fits
                if named != nil {
                    report.lines.forEach(Terminal.info)
                } else {
                    Terminal.info(report.fit.line)
                }
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            Terminal.error("check failed: \(error)")
            throw ExitCode(1)
        }
        if named != nil && !fits { throw ExitCode(1) }
    }
}
