import ArgumentParser
import Foundation
import GalleryPipeline
import GalleryServe

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Preview the site in a browser; with --watch, rebuild and reload on every change.",
        discussion: """
            Serves the output folder (building it first if there is none) on 127.0.0.1:8000. With \
            --watch, changes to site-config.json, the templates or a local source rebuild the site \
            and open browsers reload by themselves; a failed build is shown in the terminal and over \
            the page, and the last good site stays served. Ctrl-C stops the server.

            Exit status: 0 stopped with Ctrl-C, 1 failed (the port is in use, say, or the first build \
            failed), 2 bad config or arguments.

            Examples:
              galleryssg serve --watch
                  Preview the site on http://127.0.0.1:8000/, rebuilt on every change.
              galleryssg serve --host 0.0.0.0 --port 8080
                  Serve the built site to other machines on port 8080.
            """
    )

    @OptionGroup var config: ConfigOption

    @Option(name: .shortAndLong, help: "Serve (and build into) this folder instead of the config's \"output\".")
    var output: String?

    @Option(help: "The address to listen on; 0.0.0.0 makes the preview reachable from other machines.")
    var host: String = "127.0.0.1"

    @Option(name: .shortAndLong, help: "The port to listen on.")
    var port: Int = 8000

    @Flag(name: .shortAndLong, help: "Rebuild when the config, templates or local photos change, and reload browsers.")
    var watch = false

    @Option(name: .shortAndLong, help: "Photos processed in parallel when building (default: number of cores).")
    var jobs: Int?

    func validate() throws {
        guard (1...65535).contains(port) else { throw ValidationError("--port must be between 1 and 65535") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
    }

    func run() async throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let server = DevServer(
            configURL: URL(fileURLWithPath: config.path, relativeTo: cwd).standardizedFileURL,
            outputOverride: output.map { URL(fileURLWithPath: $0, relativeTo: cwd).standardizedFileURL },
            options: DevServer.Options(host: host, port: port, watch: watch, jobs: jobs),
            log: { Terminal.info($0) }, warn: { Terminal.warning($0) })
        do {
            try await server.run()
        } catch let error as ConfigError {
            Terminal.error("\(error)")
            throw ExitCode(2)
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(1)
        }
    }
}
