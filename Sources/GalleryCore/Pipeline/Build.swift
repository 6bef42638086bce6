import Foundation

/// Options of one build that are not part of the site's config.
public struct BuildOptions: Sendable {
    /// Photos processed at once; defaults to the number of cores.
    public var jobs: Int
    public init(jobs: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.jobs = max(1, jobs)
    }
}

/// A whole build, and the only place that knows the order of the pipeline's steps:
///
/// 1. `theme`    load the built-in templates and the site's overrides
/// 2. `manifest` ask the provider for the photo list
/// 3. `images`   per photo, in parallel: fetch the original, make the derivatives, stage them
/// 4. `pages`    render the grid, photo, album, tag and 404 pages, the feed, sitemap and search index
/// 5. `static`   stage the theme's static files (CSS and JS fingerprinted) and `_headers`
/// 6. `publish`  swap the staged site in for the old one
///
/// Any failure before `publish` leaves the previous site untouched. One bad photo is reported
/// and skipped; the build only fails when no photo at all could be published.
public struct Build: Sendable {
    public let config: SiteConfig
    public let options: BuildOptions
    let progress: @Sendable (String) -> Void
    let photoProgress: @Sendable (_ done: Int, _ total: Int) -> Void

    /// - Parameters:
    ///   - progress: Receives one line per step, and a `skipped …` line per photo left out.
    ///   - photoProgress: Called after each photo of the `images` step, for a live counter.
    public init(config: SiteConfig, options: BuildOptions = BuildOptions(),
                progress: @escaping @Sendable (String) -> Void = { _ in },
                photoProgress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) {
        self.config = config
        self.options = options
        self.progress = { progress(config.credentials.redact($0)) }
        self.photoProgress = photoProgress
    }

    /// Runs every step and returns the report.
    /// - Throws: `BuildError` naming the step; the previous output is kept.
    public func run() async throws -> BuildReport {
        let transport = HTTPTransport(settings: config.network)
        do {
            let report = try await run(downloader: Downloader(transport: transport, cacheFolder: cacheFolder))
            await transport.shutdown()
            return report
        } catch let error as BuildError {
            await transport.shutdown()
            throw BuildError(step: error.step, config.credentials.redact(error.reason))
        } catch {
            await transport.shutdown()
            throw BuildError(step: "build", config.credentials.redact("\(error)"))
        }
    }

    /// Downloaded originals, revalidated on the next build.
    private var cacheFolder: URL {
        config.stateDirectory.appendingPathComponent("cache/originals")
    }

    private func run(downloader: Downloader) async throws -> BuildReport {
        let started = ContinuousClock.now
        var report = BuildReport()
        var timings: [String: Double] = [:]
        report.output = config.output.path

        let theme = try step("theme", &timings) {
            try Theme(overridesIn: config.templates)
        }
        if !theme.overrides.isEmpty { progress("theme: \(theme.overrides.count) file(s) from \(config.templates.path)") }
        let assets = Assets(staticFiles: theme.staticFiles)
        let renderer = try step("theme", &timings) { try SiteRenderer(config: config, theme: theme, assets: assets) }

        let provider = ProviderFactory.provider(for: config.source, downloader: downloader, credentials: config.credentials)
        report.source = provider.summary
        let manifest = try await asyncStep("manifest", &timings) { try await provider.fetchManifest() }
        report.photosInManifest = manifest.photos.count + manifest.issues.count
        report.failures = manifest.issues.map {
            BuildReport.Failure(id: $0.item, location: $0.location, stage: "manifest", status: nil, reason: $0.reason)
        }
        report.failures.forEach(announce)
        progress("manifest: \(manifest.photos.count) photos from \(provider.summary)")

        let writer = try step("output", &timings) {
            try StagedWriter.begin(output: config.output, protecting: protectedFolders)
        }
        do {
            let fetcher = OriginalFetcher(downloader: downloader, maxBytes: config.network.maxDownloadBytes)
            let photos = PhotoPublisher(fetcher: fetcher, processor: ImageProcessor(settings: config.images),
                                        writer: writer, publishOriginals: config.images.publishOriginals)
            let inFlight = options.jobs + 2 * config.network.connectionsPerHost
            let outcome = await timed("images", &timings) {
                await photos.publishAll(manifest.photos, jobs: options.jobs, inFlight: inFlight,
                                        pixelBudget: config.images.maxPixelsInFlight, progress: photoProgress)
            }
            report.downloads = await downloader.stats.snapshot()
            outcome.failures.forEach(announce)
            report.failures += outcome.failures
            report.photoSeconds = outcome.seconds
            report.derivatives = outcome.derivatives
            report.bytesWritten = outcome.bytes
            report.photosPublished = outcome.items.count
            if outcome.items.isEmpty && !manifest.photos.isEmpty {
                throw BuildError(step: "images", "none of the \(manifest.photos.count) photos could be processed "
                                 + "(see the lines above); the previous site was kept")
            }
            progress("images: \(outcome.items.count) photos, \(outcome.derivatives) images")

            let pages = try step("pages", &timings) { try renderer.render(outcome.items) }
            try step("pages", &timings) {
                for page in pages {
                    try writer.write(page.contents, to: page.path)
                    report.bytesWritten += page.contents.count
                }
            }
            report.pages = pages.filter(\.isHTML).count
            progress("pages: \(report.pages) pages")

            try step("static", &timings) {
                for (path, data) in assets.files.sorted(by: { $0.key < $1.key }) {
                    try writer.write(data, to: path)
                    report.bytesWritten += data.count
                }
                try writer.write(Data(assets.headersFile.utf8), to: "_headers")
            }
            try step("publish", &timings) { try writer.commit() }
        } catch {
            writer.abort()
            throw error
        }
        report.failures = report.failures.map { failure in
            var redacted = failure
            redacted.reason = config.credentials.redact(failure.reason)
            redacted.location = failure.location.map(config.credentials.redact)
            return redacted
        }
        report.photosSkipped = report.failures.count
        report.stepSeconds = timings
        report.totalSeconds = seconds(since: started)
        return report
    }

    /// Folders the output may never replace.
    private var protectedFolders: [URL] {
        var folders = [config.siteDirectory, config.templates, config.stateDirectory]
        switch config.source {
        case .folder(let folder): folders.append(folder)
        case .manifestFile(let file): folders.append(file.deletingLastPathComponent())
        case .manifestURL, .flickr, .fiveHundredPx, .parse: break
        }
        return folders
    }

    private func announce(_ failure: BuildReport.Failure) {
        let location = failure.location.map { " (\($0))" } ?? ""
        let status = failure.status.map { " [HTTP \($0)]" } ?? ""
        progress("skipped \(failure.id)\(location): \(failure.stage)\(status): \(failure.reason)")
    }

    private func step<T>(_ name: String, _ timings: inout [String: Double], _ body: () throws -> T) throws -> T {
        let started = ContinuousClock.now
        defer { timings[name, default: 0] += seconds(since: started) }
        do {
            return try body()
        } catch let error as BuildError {
            throw error
        } catch {
            throw BuildError(step: name, "\(error)")
        }
    }

    private func asyncStep<T>(_ name: String, _ timings: inout [String: Double], _ body: () async throws -> T) async throws -> T {
        let started = ContinuousClock.now
        defer { timings[name, default: 0] += seconds(since: started) }
        do {
            return try await body()
        } catch {
            throw BuildError(step: name, "\(error)")
        }
    }

    private func timed<T>(_ name: String, _ timings: inout [String: Double], _ body: () async -> T) async -> T {
        let started = ContinuousClock.now
        defer { timings[name, default: 0] += seconds(since: started) }
        return await body()
    }
}

func seconds(since start: ContinuousClock.Instant) -> Double {
    let duration = ContinuousClock.now - start
    return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}
