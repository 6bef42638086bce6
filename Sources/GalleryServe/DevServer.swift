import Foundation
import GalleryConfig
import GalleryModel
import GalleryPipeline
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `galleryssg serve`: builds when there is no site yet, serves the output folder, and in watch
/// mode rebuilds on every change and reloads open browsers.
///
/// A failed rebuild keeps the last good site (the build swaps its output in only on success), shows
/// the error in the terminal and as an overlay in the browser, and the next good build clears it.
public struct DevServer: Sendable {
    public struct Options: Sendable {
        package var host = "127.0.0.1"
        package var port = 8000
        package var watch = false
        package var jobs: Int?

        public init(host: String = "127.0.0.1", port: Int = 8000, watch: Bool = false, jobs: Int? = nil) {
            self.host = host
            self.port = port
            self.watch = watch
            self.jobs = jobs
        }
    }

    package let configURL: URL
    package let outputOverride: URL?
    package let options: Options
    package let log: @Sendable (String) -> Void
    package let warn: @Sendable (String) -> Void

    public init(
        configURL: URL, outputOverride: URL?, options: Options,
        log: @escaping @Sendable (String) -> Void, warn: @escaping @Sendable (String) -> Void
    ) {
        self.configURL = configURL
        self.outputOverride = outputOverride
        self.options = options
        self.log = log
        self.warn = warn
    }

    /// The config as it is on disk now (it may have changed since the last build), with `--output` applied.
    func loadConfig() throws -> SiteConfig {
        var config = try SiteConfig.load(from: configURL)
        if let outputOverride { config.output = outputOverride }
        return config
    }

    /// Loads the config as it is now and builds.
    package func build() async throws -> (SiteConfig, BuildReport) {
        let config = try loadConfig()
        let build = Build(
            config: config, options: options.jobs.map { BuildOptions(jobs: $0) } ?? BuildOptions(),
            progress: { event in
                switch event {
                case .skipped, .notPublished: warn(event.line)
                case .step, .warning: break
                }
            })
        return (config, try await build.run())
    }

    /// One watch-mode rebuild: build, then reload the browsers or show them the error.
    package func rebuild(_ liveReload: LiveReload) async {
        do {
            let (_, report) = try await build()
            log("rebuilt: \(report.summary)")
            await liveReload.reload()
        } catch {
            warn("build failed: \(error)\nstill serving the last good site; fix it and save again")
            await liveReload.buildFailed("\(error)")
        }
    }

    /// Serves until Ctrl-C (SIGINT) or SIGTERM.
    /// - Throws: `DevServerError` when the site cannot be built or the address cannot be bound.
    public func run() async throws {
        var config = try loadConfig()
        if !FileManager.default.fileExists(atPath: config.output.appendingPathComponent(SiteLayout.home).path) {
            log("no site in \(config.output.path) yet; building it first")
            do {
                let (built, report) = try await build()
                config = built
                log("built \(built.output.path): \(report.summary)")
            } catch {
                throw DevServerError(.firstBuildFailed, "the first build failed: \(error)")
            }
        }
        let liveReload = options.watch ? LiveReload() : nil
        let server = PreviewServer(folder: config.output, liveReload: liveReload, log: log)
        var services: [any Service] = []
        if let liveReload {
            services.append(WatchService(watcher: SiteWatcher(config: config), liveReload: liveReload, server: self))
        }
        // 0.0.0.0 and :: answer on every address; a browser on the same machine (or on the host of
        // a container whose port is published) opens localhost.
        let everyAddress = options.host == "0.0.0.0" || options.host == "::"
        let shown = everyAddress ? "localhost" : options.host.contains(":") ? "[\(options.host)]" : options.host
        let address =
            "http://\(shown):\(options.port)/" + (everyAddress ? " (listening on every address, \(options.host))" : "")
        let log = self.log
        let watch = options.watch
        let folder = config.output.path
        let app = Application(
            router: server.router(),
            configuration: .init(address: .hostname(options.host, port: options.port)),
            services: services,
            onServerRunning: { _ in
                log("serving \(folder) at \(address)\(watch ? ", rebuilding on changes" : "") (Ctrl-C to stop)")
            },
            logger: PreviewServer.quietLogger)
        do {
            try await app.runService()
        } catch let error as IOError where error.errnoCode == EADDRINUSE {
            throw DevServerError(
                .addressInUse,
                "\(options.host):\(options.port) is already in use (is another server running?); "
                    + "try --port \(options.port + 1)")
        }
        log("stopped")
    }
}

/// Runs the watcher beside the server and closes the event streams when the server shuts down.
struct WatchService: Service {
    let watcher: SiteWatcher
    let liveReload: LiveReload
    let server: DevServer

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await watcher.run { await server.rebuild(liveReload) }
        }
        await liveReload.finish()
    }
}

/// Why `serve` could not start.
///
/// Callers that act on the problem switch on `kind`, never on the words.
typealias DevServerError = KindedFailure<DevServerErrorKind>

/// What went wrong, for a `DevServerError`.
enum DevServerErrorKind: Sendable, Equatable {
    /// There was no site to serve and building it failed; the words carry the build's error.
    case firstBuildFailed
    /// Another program listens on the host and port.
    case addressInUse
}
