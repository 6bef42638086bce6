import ArgumentParser
import Foundation
import GalleryPipeline

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site described by site-config.json into its output folder.",
        discussion: """
            The site is built into a staging folder beside the output and swapped in only when every \
            step succeeded, so a failed or killed build leaves the previous site in place. A photo that \
            cannot be read is reported and skipped.

            Builds are incremental: the state folder remembers every photo, and derivatives and pages \
            whose inputs did not change are reused from its caches. The output is always the same as a \
            clean build's.

            Cold builds across machines: on each of N machines run build --images-only --shard K/N \
            --cache DIR, with DIR shared (or gathered afterwards); then a plain build --cache DIR renders \
            the whole site from their work without decoding any photo again.

            Ctrl-C stops the build at its next wait and keeps the previous site; a second Ctrl-C ends \
            it at once, which is as safe.

            The output folder must be missing, empty or a site galleryssg built; anything else is refused \
            before any work, and --force moves what galleryssg did not write into a folder beside it. \
            galleryssg never deletes a file it did not write.

            Exit status: 0 built (photos may have been skipped), 1 build failed (or the output was refused), \
            2 bad config or arguments, 3 built but photos were skipped or published with warnings (a JPEG \
            with junk between markers, say), the source had no photos or a template uses a name nothing \
            has, and --strict was given, 130 interrupted (Ctrl-C).

            Examples:
              galleryssg build --strict --report report.json
                  Build, write a JSON report, and exit with 3 if any photo was skipped.
              galleryssg build --output /tmp/gallery-preview --jobs 2
                  Build into another folder, two photos at a time.
              galleryssg build --images-only --shard 1/4 --cache /tmp/gallery-cache
                  Make the images of the first of four slices only (one machine of four).
              galleryssg build --host cloudflare-pages
                  Build, then measure the site against Cloudflare Pages' limits (a line, a warning when over).
            """
    )

    @OptionGroup var config: ConfigOption

    @OptionGroup var host: HostOption

    @Option(name: .shortAndLong, help: "Publish into this folder instead of the config's \"output\".")
    var output: String?

    @Option(name: .shortAndLong, help: "Photos processed in parallel (default: number of cores).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Write a JSON build report to this file.", valueName: "file"))
    var report: String?

    @Flag(help: "Exit with status 3 when any photo was skipped or published with a warning, or the source had none.")
    var strict = false

    @Flag(name: .shortAndLong, help: "Print only warnings, errors and the summary.")
    var quiet = false

    @Flag(help: "Ignore the caches: download, decode, encode and render everything again.")
    var rebuild = false

    @Flag(
        help:
            "Take over an output folder that holds files galleryssg did not write: move them into a folder beside it (the message says where), never delete them."
    )
    var force = false

    @Flag(help: "Build from the last fetched manifest and the cached originals, without the network.")
    var offline = false

    @Flag(
        help:
            "Only make the photos' derivatives, into the cache, and record there what was learnt for a later build; publish nothing."
    )
    var imagesOnly = false

    @Option(
        help: ArgumentHelp(
            "With --images-only: only the K-th of N stable slices of the photos (1 ≤ K ≤ N).", valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            "Keep the caches in this folder instead of the config's \"cache\", such as one that several machines share.",
            valueName: "dir"))
    var cache: String?

    /// Bad arguments exit with status 2, as a bad config does.
    func validate() throws {
        func refuse(_ problem: String) throws -> Never {
            Terminal.error("\(problem) (see galleryssg build --help)")
            throw ExitCode(2)
        }
        if let jobs, jobs < 1 { try refuse("--jobs must be at least 1") }
        if let shard {
            do { _ = try Shard(parsing: shard) } catch { try refuse("--shard: \(error)") }
            if !imagesOnly { try refuse("--shard builds only the images of its slice; add --images-only") }
        }
        if imagesOnly && offline {
            try refuse("--images-only reads the manifest from its source; it cannot be --offline")
        }
    }

    func run() async throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        var site = try loadSite(config.path)
        if let output { site.output = URL(fileURLWithPath: output, relativeTo: cwd).standardizedFileURL }
        if let cache { site.cacheDirectory = URL(fileURLWithPath: cache, relativeTo: cwd).standardizedFileURL }

        let quiet = self.quiet
        let live = !quiet && isatty(STDOUT_FILENO) == 1
        var options = BuildOptions(rebuild: rebuild, offline: offline, takeOver: force)
        if imagesOnly { options.imagesOnly = try shard.map { try Shard(parsing: $0) } ?? .all }
        if let jobs { options.jobs = jobs }
        options.deploy = host.settings
        let build = Build(
            config: site, options: options,
            progress: { event in
                switch event {
                case .skipped, .notPublished: Terminal.warning(event.line)
                case .warning(let text): Terminal.warning(text)
                case .step(let text): if !quiet { Terminal.info(text) }
                }
            },
            photoProgress: { done, total in
                guard live else { return }
                Terminal.status("images: \(done)/\(total)", final: done == total)
            })
        let result: BuildReport
        do {
            result = try await Interrupt.cancelling { try await build.run() }
        } catch is CancellationError {
            Terminal.error("build interrupted" + (imagesOnly ? "" : previousSite(site, "; ")))
            throw ExitCode(Interrupt.exitStatus)
        } catch {
            Terminal.error("build failed at \(error)")
            if !imagesOnly && Build.hasPublishedSite(site) { Terminal.error(previousSite(site, "")) }
            throw ExitCode(1)
        }
        if let report {
            let reportURL = URL(fileURLWithPath: report, relativeTo: cwd)
            do {
                try result.json().write(to: reportURL)
            } catch {
                Terminal.error("\(reportURL.path): could not write the report: \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
        if imagesOnly {
            Terminal.info("cached in \(site.cacheDirectory.path): \(result.summary)")
        } else {
            Terminal.info("built \(site.output.path): \(result.summary)")
        }
        if let fit = result.host {
            Terminal.info(fit.line)
            if !fit.fits { Terminal.warning(fit.warning) }
        }
        result.recap().forEach(Terminal.info)
        let problems = result.photosSkipped > 0 || !result.warnings.isEmpty || result.emptySource != nil
        if strict && (problems || !result.templateWarnings.isEmpty) { throw ExitCode(3) }
    }

    /// "the previous site in … was left as it was", only where there is one.
    private func previousSite(_ site: SiteConfig, _ lead: String) -> String {
        Build.hasPublishedSite(site) ? "\(lead)the previous site in \(site.output.path) was left as it was" : ""
    }
}
