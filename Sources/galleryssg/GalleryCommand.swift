import ArgumentParser
import Foundation
import GalleryPipeline

@main
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "galleryssg",
        abstract: "Build a static photo gallery from a folder, a manifest or a photo feed.",
        discussion: """
            Exit status: 0 done, 1 the command failed, 2 bad config or arguments (a misspelt command \
            or option included), 3 build --strict skipped photos or found warnings, 130 interrupted \
            (Ctrl-C). Each command's --help lists its own.

            Examples:
              galleryssg build
                  Build the site of ./site-config.json (in a clone: the sample).
              galleryssg serve --watch
                  Preview it on http://127.0.0.1:8000/, rebuilt on every change.
              galleryssg init my-gallery
                  Start a new site in my-gallery/ for your own photos.
            """,
        version: Version.description,
        subcommands: [
            BuildCommand.self, ServeCommand.self, InitCommand.self, CleanCommand.self, CacheCommand.self,
            CheckCommand.self, DeployCommand.self, SchemaCommand.self, RekeyCommand.self
        ]
    )
}

/// Reads the config named by `--config`, relative to the current folder.
/// - Throws: `ExitCode(2)` after printing the config error.
func loadSite(_ path: String) throws -> SiteConfig {
    MallocTuning.apply()  // before any pixel buffer is allocated
    let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    let configURL = URL(fileURLWithPath: path, relativeTo: cwd).standardizedFileURL
    do {
        return try SiteConfig.load(from: configURL)
    } catch {
        Terminal.error("\(error)")
        throw ExitCode(2)
    }
}

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
                case .skipped: Terminal.warning(event.line)
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

struct CleanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove the site's output folder and its state folder (build state and every cache).",
        discussion: """
            Only files galleryssg wrote are removed from the output; a folder holding others is kept \
            and named. The next build is a full build. Exit status: 0 cleaned, 1 failed (a build is \
            running, or a folder could not be removed), 2 bad config or arguments.

            Examples:
              galleryssg clean
                  Remove the output and the state of ./site-config.json's site.
              galleryssg clean --config my-gallery/site-config.json
                  The same for another site.
            """
    )

    @OptionGroup var config: ConfigOption

    func run() throws {
        try maintain("clean", config: config.path) { site in
            let (removed, kept) = try Maintenance.clean(site)
            for path in removed { Terminal.info("removed \(path)") }
            for line in kept { Terminal.warning(line) }
        }
    }
}

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect or trim the site's caches.",
        discussion: """
            Examples:
              galleryssg cache stats
                  Show the caches' files, their size and the hit rates of the last builds.
              galleryssg cache gc
                  Remove the cached files that nothing in the state uses any more.
            """,
        subcommands: [CacheStatsCommand.self, CacheGCCommand.self]
    )
}

struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the number of photos in the state, the files and bytes of each cache, and hit rates.",
        discussion: """
            Exit status: 0 shown, 1 failed (the state could not be read), 2 bad config or arguments.

            Examples:
              galleryssg cache stats
                  The caches of ./site-config.json's site.
              galleryssg cache stats --config my-gallery/site-config.json
                  The caches of another site.
            """
    )

    @OptionGroup var config: ConfigOption

    func run() throws {
        try maintain("cache stats", config: config.path) { site in
            Terminal.info("\(try Maintenance.cacheStats(site))")
        }
    }
}

struct CacheGCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Remove cached files that no photo or page of the last build uses.",
        discussion: """
            Exit status: 0 trimmed, 1 failed (a build is running, or a file could not be removed), 2 bad \
            config or arguments.

            Examples:
              galleryssg cache gc
                  Trim the caches, say after changing the image settings.
              galleryssg cache stats && galleryssg cache gc
                  See what is unused, then remove it.
            """
    )

    @OptionGroup var config: ConfigOption

    func run() throws {
        try maintain("cache gc", config: config.path) { site in
            for cache in try Maintenance.collectGarbage(site) {
                Terminal.info("\(cache.name): removed \(cache.files) files, \(ByteCount.text(cache.bytes))")
            }
        }
    }
}

/// Runs a maintenance command on the site of `config`: a bad config exits as `loadSite` does (2),
/// and any other failure is reported as "NAME failed: …" with exit status 1.
func maintain(_ name: String, config: String, _ body: (SiteConfig) throws -> Void) throws {
    let site = try loadSite(config)
    do {
        try body(site)
    } catch {
        Terminal.error("\(name) failed: \(error)")
        throw ExitCode(1)
    }
}

/// Where the CLI's output goes: progress to stdout, problems to stderr.
enum Terminal {
    static func info(_ line: String) {
        // Written straight to the descriptor, unbuffered: `serve` runs for hours and its log must
        // reach a pipe or a file at once.
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    /// Rewrites the current terminal line; used only when stdout is a terminal.
    static func status(_ line: String, final: Bool) {
        FileHandle.standardOutput.write(Data("\r\u{1B}[K\(line)\(final ? "\r\u{1B}[K" : "")".utf8))
    }

    static func warning(_ line: String) {
        FileHandle.standardError.write(Data("warning: \(line)\n".utf8))
    }

    static func error(_ line: String) {
        FileHandle.standardError.write(Data("error: \(line)\n".utf8))
    }
}
