import Foundation
import GalleryFetch
import GalleryImaging
import GalleryModel
import GalleryOutput
import GalleryRender
import GalleryStore

/// The steps of a full build from its photos on: the images, the plan, the album zips, the pages,
/// the static files, the sealing, the state and the swap (`Build.runSteps` runs them in order,
/// each taking what the one before it made).
extension Build {
    /// `images`: every photo published within `--jobs` and the pixel budget (`Build.publishImages`).
    func publishImages(in ready: Ready, downloader: Downloader, report: inout BuildReport) async throws -> Imaged {
        let fetcher = OriginalFetcher(downloader: downloader, maxBytes: config.network.maxDownloadBytes)
        let photos = PhotoPublisher(
            fetcher: fetcher, processor: ImageProcessor(settings: config.images),
            writer: ready.writer, publishOriginals: config.images.publishOriginals, state: ready.state,
            videos: VideoWork(config.video, options: options))
        let listed = ready.photos
        let outcome = try await publishImages(
            listed, with: photos, state: ready.state, downloader: downloader, report: &report,
            noneProcessed: "none of the \(listed.count) photos could be processed "
                + "(see the lines above); the previous site was kept")
        return Imaged(outcome: outcome, fetcher: fetcher)
    }

    /// `pages` (planned): the model of every grid, photo, album, tag and 404 page, the feed and the
    /// sitemap, from the published photos (which move into it), and the protected albums to seal.
    func planSite(_ imaged: inout Imaged, in ready: Ready) -> Planned {
        let hidden = ready.hidden
        let plan = ready.renderer.plan(
            imaged.outcome.takeItems(), albums: ready.albums, albumTokens: hidden.tokens,
            albumFolders: hidden.folders,
            placeholders: PlaceholderLookup { [state = ready.state] in
                state.placeholderURI($0)
            })
        // Under a site password the pages move to opaque paths: their links are told once sealed.
        let links = hiddenLinks(plan, hidden)
        if hidden.site == nil { announce(links, renderer: ready.renderer) }
        let targets = hidden.protected.compactMap { album in
            plan.sections.albums.albums.first { $0.path == album.path }
                .map { AlbumSealer.Target(album: album, folder: SiteLayout.album($0.slugPath)) }
        }
        let sealing = Sealing(targets: targets, site: hidden.site, hiddenLinks: hidden.site == nil ? [] : links)
        return Planned(plan: plan, sealing: sealing)
    }

    /// `downloads`: a zip of each album whose `download` is `album`, or its unchanged zip linked from
    /// the cache; album pages show the sizes.
    func zipAlbums(_ planned: Planned, in ready: Ready, report: inout BuildReport) throws -> Zipped {
        let zips = AlbumZips(writer: ready.writer, cache: config.cacheDirectory, reuse: !options.rebuild)
        let zipped = try zips.publish(planned.plan)
        report.bytesWritten += Int(zipped.bytesMade)
        if !zipped.downloads.isEmpty {
            progress(
                .step(
                    "downloads: \(zipped.downloads.count) album zips (\(zipped.made) new or changed, \(zipped.reused) unchanged)"
                ))
        }
        return Zipped(plan: planned.plan.adding(downloads: zipped.downloads), sealing: planned.sealing)
    }

    /// `pages`: renders the pages whose inputs changed and links the rest from the page cache. The
    /// plan, which holds every gallery item, goes once they are staged, before the state is saved.
    func publishPages(_ zipped: Zipped, _ imaged: Imaged, in ready: Ready, report: inout BuildReport) async throws
        -> Paged
    {
        let publisher = PagePublisher(
            writer: ready.writer, cache: ready.state.pages, reusePages: !options.rebuild,
            linkWindow: options.readWindow, previousSiteKey: options.rebuild ? nil : ready.previousPagesKey,
            database: ready.database)
        let published = imaged.outcome.published
        let (database, window) = (ready.database, options.readWindow)
        let pages = try await publisher.publish(
            zipped.plan, renderer: ready.renderer, jobs: options.jobs,
            rows: { try await PhotoRows.forEach(published, database: database, window: window, $0) })
        try ready.state.check()
        report.pages = pages.pages
        report.pagesRendered = pages.rendered
        report.pagesReused = pages.reused
        report.searchIndexSeconds = pages.plainFileSeconds
        report.bytesWritten += pages.bytes
        progress(.step("pages: \(pages.pages) pages (\(pages.rendered) new or changed, \(pages.reused) unchanged)"))
        return Paged(pages: pages, sealing: zipped.sealing)
    }

    /// `static`: the theme's static files (CSS and JS fingerprinted) and `_headers`.
    func stageStatic(_ paged: Paged, in ready: Ready, report: inout BuildReport) throws -> Complete {
        let (assets, writer) = (ready.assets, ready.writer)
        for (path, data) in assets.files.sorted(by: { $0.key < $1.key }) {
            try writer.write(data, to: path)
            report.bytesWritten += data.count
        }
        // The service worker that opens protected albums is on every site: were it only on sites
        // with one, its presence would say that the site has a protected album.
        if let worker = assets.serviceWorker { try writer.write(worker, to: SiteLayout.serviceWorker) }
        try writer.write(Data(assets.headersFile.utf8), to: SiteLayout.headers)
        return Complete(pages: paged.pages, sealing: paged.sealing)
    }

    /// `seal`: encrypts protected albums' staged files, or the whole site under a site password;
    /// run only when there is one of them (`Sealing.hasWork`).
    func seal(_ complete: Complete, in ready: Ready, report: inout BuildReport) throws {
        let sealing = complete.sealing
        let (sealed, map) = try sealProtected(
            sealing.targets, site: sealing.site, writer: ready.writer, renderer: ready.renderer, assets: ready.assets)
        if let map { announce(sealing.hiddenLinks, renderer: ready.renderer, published: { map.published($0) }) }
        report.bytesWritten += sealed.bytes
        let what =
            (sealing.site == nil ? [] : ["the site"])
            + (sealing.targets.isEmpty ? [] : ["\(sealing.targets.count) protected album(s)"])
        progress(
            .step(
                "seal: \(sealed.files) files of \(what.joined(separator: " and ")) encrypted "
                    + "(\(sealed.made) made, \(sealed.reused) from the cache)"))
    }
}
