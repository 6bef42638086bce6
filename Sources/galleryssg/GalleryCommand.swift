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
