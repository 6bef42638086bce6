import ArgumentParser
import Foundation
import GalleryCore

@main
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "galleryssg",
        abstract: "Build a static photo gallery from a folder, a manifest or a photo feed.",
        version: "0.1.0",
        subcommands: [BuildCommand.self, ServeCommand.self, InitCommand.self]
    )
}

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site described by site-config.json into its output folder.",
        discussion: """
            The site is built into a staging folder beside the output and swapped in only when every \
            step succeeded, so a failed build leaves the previous site in place. A photo that cannot \
            be read is reported and skipped.

            Exit status: 0 built (photos may have been skipped), 1 build failed, \
            2 bad config or arguments, 3 built but photos were skipped and --strict was given.
            """
    )

    @Option(name: .shortAndLong, help: "The site's config file.")
    var config: String = "site-config.json"

    @Option(name: .shortAndLong, help: "Publish into this folder instead of the config's \"output\".")
    var output: String?

    @Option(name: .shortAndLong, help: "Photos processed in parallel (default: number of cores).")
    var jobs: Int?

    @Option(help: ArgumentHelp("Write a JSON build report to this file.", valueName: "file"))
    var report: String?

    @Flag(help: "Exit with status 3 when any photo was skipped.")
    var strict = false

    @Flag(name: .shortAndLong, help: "Print only warnings, errors and the summary.")
    var quiet = false

    func validate() throws {
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let configURL = URL(fileURLWithPath: config, relativeTo: cwd).standardizedFileURL
        var site: SiteConfig
        do {
            site = try SiteConfig.load(from: configURL)
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(2)
        }
        if let output { site.output = URL(fileURLWithPath: output, relativeTo: cwd).standardizedFileURL }

        let quiet = self.quiet
        let live = !quiet && isatty(STDOUT_FILENO) == 1
        let build = Build(config: site, options: jobs.map { BuildOptions(jobs: $0) } ?? BuildOptions(), progress: { line in
            if line.hasPrefix("skipped ") {
                Terminal.warning(line)
            } else if !quiet {
                Terminal.info(line)
            }
        }, photoProgress: { done, total in
            guard live else { return }
            Terminal.status("images: \(done)/\(total)", final: done == total)
        })
        let result: BuildReport
        do {
            result = try await build.run()
        } catch {
            Terminal.error("build failed at \(error)")
            Terminal.error("the previous site in \(site.output.path) was left as it was")
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
        Terminal.info("built \(site.output.path): \(result.summary)")
        if strict && result.photosSkipped > 0 { throw ExitCode(3) }
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
