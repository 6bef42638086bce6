import Foundation
import GalleryModel
import GalleryOutput
import GalleryRender
import GalleryStore

/// The steps of a full build after its photos: the plan, the album zips, the pages, the static
/// files, the sealing, the state and the swap (`Build.steps` runs them in order).
extension BuildRun {
    /// `pages` (planned): the model of every grid, photo, album, tag and 404 page, the feed and the
    /// sitemap, from the published photos (which move into it), and the protected albums to seal.
    func planSite() {
        let plan = renderer.plan(
            outcome.takeItems(), albums: manifest.albums, albumTokens: hidden.tokens,
            albumFolders: hidden.folders, placeholders: PlaceholderLookup { [state] in state!.placeholderURI($0) })
        // Under a site password the pages move to opaque paths: their links are told once sealed.
        let links = build.hiddenLinks(plan, hidden)
        if hidden.site == nil { build.announce(links, renderer: renderer) } else { hiddenLinks = links }
        sealTargets = hidden.protected.compactMap { album in
            plan.sections.albums.albums.first { $0.path == album.path }
                .map { AlbumSealer.Target(album: album, folder: SiteLayout.album($0.slugPath)) }
        }
        self.plan = plan
    }

    /// `downloads`: a zip of each album whose `download` is `album`, or its unchanged zip linked from
    /// the cache; album pages show the sizes.
    func zipAlbums() throws {
        let zips = AlbumZips(writer: writer, cache: config.cacheDirectory, reuse: !options.rebuild)
        let zipped = try zips.publish(plan)
        self.plan = plan.adding(downloads: zipped.downloads)
        report.bytesWritten += Int(zipped.bytesMade)
        if !zipped.downloads.isEmpty {
            progress(
                .step(
                    "downloads: \(zipped.downloads.count) album zips (\(zipped.made) new or changed, \(zipped.reused) unchanged)"
                ))
        }
    }

    /// `pages`: renders the pages whose inputs changed and links the rest from the page cache. The
    /// plan, which holds every gallery item, goes once they are staged, before the state is saved.
    func publishPages() async throws {
        let plan: SitePlan = self.plan
        self.plan = nil
        let publisher = PagePublisher(
            writer: writer, cache: state.pages, reusePages: !options.rebuild, linkWindow: options.readWindow,
            previousSiteKey: options.rebuild ? nil : snapshot.pagesKey, database: database)
        let published = outcome.published
        let (database, window) = (database!, options.readWindow)
        let pages = try await publisher.publish(
            plan, renderer: renderer, jobs: options.jobs,
            rows: { try await PhotoRows.forEach(published, database: database, window: window, $0) })
        try state.check()
        report.pages = pages.pages
        report.pagesRendered = pages.rendered
        report.pagesReused = pages.reused
        report.searchIndexSeconds = pages.plainFileSeconds
        report.bytesWritten += pages.bytes
        progress(.step("pages: \(pages.pages) pages (\(pages.rendered) new or changed, \(pages.reused) unchanged)"))
        self.pages = pages
    }

    /// `static`: the theme's static files (CSS and JS fingerprinted) and `_headers`.
    func stageStatic() throws {
        for (path, data) in assets.files.sorted(by: { $0.key < $1.key }) {
            try writer.write(data, to: path)
            report.bytesWritten += data.count
        }
        // The service worker that opens protected albums is on every site: were it only on sites
        // with one, its presence would say that the site has a protected album.
        if let worker = assets.serviceWorker { try writer.write(worker, to: SiteLayout.serviceWorker) }
        try writer.write(Data(assets.headersFile.utf8), to: SiteLayout.headers)
    }

    /// Whether the `seal` step has anything to encrypt.
    var hasSealing: Bool { !sealTargets.isEmpty || hidden.site != nil }

    /// `seal`: encrypts protected albums' staged files, or the whole site under a site password.
    func seal() throws {
        let (sealed, map) = try build.sealProtected(
            sealTargets, site: hidden.site, writer: writer, renderer: renderer, assets: assets)
        if let map { build.announce(hiddenLinks, renderer: renderer, published: { map.published($0) }) }
        report.bytesWritten += sealed.bytes
        let what =
            (hidden.site == nil ? [] : ["the site"])
            + (sealTargets.isEmpty ? [] : ["\(sealTargets.count) protected album(s)"])
        progress(
            .step(
                "seal: \(sealed.files) files of \(what.joined(separator: " and ")) encrypted "
                    + "(\(sealed.made) made, \(sealed.reused) from the cache)"))
    }

    /// `publish` (settled): before the state is saved, the earlier site's files this build does not
    /// keep must all be galleryssg's; any other is moved aside.
    func settle() async throws {
        let moved = try await writer.settle(takeOver: options.takeOver, aside: aside)
        if moved.foreign > 0 {
            progress(.warning(OutputError.movedAside(moved.foreign, from: writer.staging.path, to: aside.path)))
        }
        if moved.unknown > 0 {
            progress(.warning(OutputError.movedFromEarlierVersion(moved.unknown, to: aside.path)))
        }
    }

    /// `state` (saved): the manifest merged into the state (new, changed and removed photos and their
    /// blobs), the pending rows applied in the same transaction.
    func saveState() async throws {
        let merge = try await StateMerge(
            priors: state.priors, window: options.readWindow, published: outcome.published,
            tally: outcome.tally, failed: outcome.failed, pages: pages, database: database)
        var changes = merge.changes
        outcome.published = []  // what the state needs of them is in `changes` and the pending table now
        report.photosRemoved = changes.counts.photosRemoved
        state.images.remove(merge.orphanImageKeys)
        state.pages.remove(merge.orphanPageKeys)
        changes.deletedBlobs = merge.orphanImageKeys + merge.orphanPageKeys
        // The blob records the photos and pages carried back are in the pending table
        // (`PhotoRows`, `PagePublisher`), applied with the rest in this transaction.
        (changes.originals, changes.placeholders) = state.learnt
        changes.pagesKey = pages.siteKey
        changes.learntFiles = state.shared.stamps
        changes.counts.pagesRendered = pages.rendered
        changes.counts.pagesReused = pages.reused
        for location in merge.orphanDownloads { fetcher.forget(location) }
        try await database.saveChanges(changes)
    }

    /// `publish`: the staged site swapped in for the old one, marked with what it was built from.
    func commit() async throws {
        let record = SiteRecord(inputs: SiteFreshness.inputs(config), stateBuild: try database.lastBuildID())
        try await writer.commit(record: record, folderIndex: renderer.folderIndexPage)
    }
}
