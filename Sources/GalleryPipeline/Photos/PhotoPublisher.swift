import Foundation
import GalleryConfig
import GalleryFetch
import GalleryImaging
import GalleryKeys
import GalleryMetadata
import GalleryModel
import GalleryOutput
import GalleryProviders
import GalleryRender
import GalleryStore

/// The per-photo part of the `images` step: fetch → imaging → stage, for many photos in parallel,
/// reusing whatever the build state already has.
///
/// For each photo the original is identified first (a local file by size and modification time, a
/// download by URL), its derivatives are planned and keyed from header facts alone, and only the
/// files missing from the cache are made: an unchanged photo is not read, decoded or encoded at
/// all, just linked from the cache into the staging folder. At most `jobs` photos decode at once,
/// within the pixel budget. Results keep manifest order.
package struct PhotoPublisher: Sendable {
    package let fetcher: OriginalFetcher
    package let processor: ImageProcessor
    /// Where the photos' files are staged; nil for an images-only build, which only fills the cache.
    package let writer: StagedWriter?
    package let publishOriginals: OriginalsPolicy
    package let state: BuildState
    /// ffmpeg and the encode queue, for the clips.
    package let videos: VideoWork
    /// Renders in progress, so photos with the same bytes and settings share one decode and encode.
    private let renders = SharedWork<RenderStats>()

    package init(
        fetcher: OriginalFetcher, processor: ImageProcessor, writer: StagedWriter?, publishOriginals: OriginalsPolicy,
        state: BuildState,
        videos: VideoWork = VideoWork(encoder: VideoEncoder.find(settings: VideoSettings()), jobs: 1)
    ) {
        self.fetcher = fetcher
        self.videos = videos
        self.processor = processor
        self.writer = writer
        self.publishOriginals = publishOriginals
        self.state = state
    }

    struct RenderStats: Sendable {
        var made: Int
        var bytes: Int
        var seconds: [BuildStep: Double]
        /// The thumbnail's placeholder: made by the render (new to the state), or the state's when
        /// nothing had to be rendered.
        var placeholder: Found<Placeholder>
        /// Whether another photo with the same bytes and settings made the files (this one waited for
        /// it, or came after it), so the files this photo found missing count as reused.
        var madeByAnother = false
    }

    /// What the planner knows of one photo before any pixel work: its original, header facts,
    /// derivative layout and keys, and which files the cache lacks.
    struct PhotoPlan: Sendable {
        var photo: Photo
        var position: Int
        var prior: PhotoState?
        var original: Original
        var facts: OriginalFacts
        var layout: ImageLayout
        var keys: DerivativeKeys
        /// Derivatives the cache lacks; rendering makes them (and the placeholder, when missing).
        var missing: [(path: String, key: Digest)]
        /// Derivatives the staging folder already holds (`StagedWriter.holds`): kept, not linked.
        var held: [String] = []
        /// What planning, rendering and linking learnt that the state lacks; the photo's outcome carries it.
        var learnt = Learnt()
        /// Problems that did not stop the photo (a Live Photo's clip that could not be made), for the report.
        var warnings: [String] = []
        var folder: String { SiteLayout.photoFolder(id: photo.id) }
    }

    /// One photo: plan, render what is missing, link into staging. Each part reports failures under its own step.
    package func attempt(_ photo: Photo, position: Int, cpu: WorkBudget, trustPrior: Bool) async throws -> (
        GalleryItem, Published
    ) {
        var seconds: [BuildStep: Double] = [:]
        var plan = try await self.plan(photo, position: position, trustPrior: trustPrior, seconds: &seconds)
        var clock = ContinuousClock.now
        let stats = try await render(&plan, cpu: cpu)
        for (name, value) in stats.seconds { seconds[name] = value }
        if stats.madeByAnother { plan.missing = [] }
        let placeholder = stats.placeholder.value
        if stats.placeholder.isNew { plan.learnt.placeholder = (plan.keys.thumbnail, placeholder) }
        seconds[.imaging, default: 0] += clock.secondsElapsed
        clock = ContinuousClock.now
        let linked = try await Self.at(.write) { try await link(&plan) }
        seconds[.write] = clock.secondsElapsed
        return try await Self.at(.write) {
            try finish(
                plan, placeholder: placeholder, linked: linked, made: stats.made + linked.made,
                bytes: stats.bytes + linked.bytes, seconds: seconds)
        }
    }

    /// Runs one part of a photo's work, reporting any failure under `step`.
    package static func at<T>(_ step: BuildStep, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as PhotoFailure { throw error } catch {
            throw PhotoFailure(stage: step, error: error)
        }
    }

    /// The planner: identifies the original and plans its derivatives from header facts alone.
    private func plan(_ photo: Photo, position: Int, trustPrior: Bool, seconds: inout [BuildStep: Double]) async throws
        -> PhotoPlan
    {
        let prior = state.prior(photo.id)
        var clock = ContinuousClock.now
        var original = try await Self.at(.fetch) {
            try await identify(photo, known: trustPrior ? state.knownOriginals(photo, prior: prior) : [])
        }
        seconds[.fetch] = clock.secondsElapsed
        clock = ContinuousClock.now
        defer { seconds[.imaging] = clock.secondsElapsed }
        return try await Self.at(.imaging) {
            let facts: OriginalFacts
            var learnt = Learnt()
            if let known = state.facts(original.hash), known.value.isCurrent {
                facts = known.value
                if known.isNew { learnt.facts = (original.hash, facts) }
            } else if isVideo(photo, original) {
                facts = try await rememberingFailure(ofClip: original.hash) { try await videoFacts(photo, &original) }
                learnt.facts = (original.hash, facts)
            } else {
                facts = try ImageProcessor.facts(of: try await originalBytes(of: photo, &original))
                learnt.facts = (original.hash, facts)
            }
            let layout = try processor.layout(facts, folder: SiteLayout.photoFolder(id: photo.id))
            var keys =
                if let video = facts.video {
                    videoKeys(photo, hash: original.hash, facts: facts, video: video, layout: layout)
                } else {
                    processor.keys(contentHash: original.hash, facts: facts, layout: layout)
                }
            if facts.video == nil,
                let motion = try motionKey(photo, hash: original.hash, facts: facts)
                    ?? animationKey(photo, hash: original.hash, facts: facts, layout: layout)
            {
                keys.files.append(motion)
            }
            // An unchanged photo's files, in a rebuild, are already in the staging folder: the cache's copies need no look.
            let held = keys.files.filter { writer?.holds($0.key, of: state.images, at: $0.path) == true }.map(\.path)
            var missing: [(path: String, key: Digest)] = []
            for file in keys.files where !held.contains(file.path) {
                if await !state.images.isIntact(file.key) { missing.append(file) }
            }
            var plan = PhotoPlan(
                photo: photo, position: position, prior: prior, original: original, facts: facts, layout: layout,
                keys: keys, missing: missing, held: held, learnt: learnt)
            // Every build says so, as long as the file is as it is (the facts keep the problem).
            if let problem = facts.motionProblem { plan.warnings.append(problem.words) }
            return plan
        }
    }

    /// The renderer: decodes the original once and encodes what the plan found missing (nothing, for
    /// an unchanged photo whose files and placeholder are cached).
    private func render(_ plan: inout PhotoPlan, cpu: WorkBudget) async throws -> RenderStats {
        let motionPath = Self.motionPath(plan)
        let motionEntry = plan.missing.first { $0.path == motionPath }
        let motion =
            if plan.facts.isAnimation { try await renderAnimation(&plan) } else { try await renderMotion(&plan) }
        // The still's own work, without the motion file; a motion made stays missing (made, not reused).
        plan.missing.removeAll { $0.path == motionPath }
        defer { if motion.made > 0, let motionEntry { plan.missing.append(motionEntry) } }
        if plan.missing.isEmpty, let placeholder = state.placeholder(plan.keys.thumbnail) {
            return RenderStats(
                made: motion.made, bytes: motion.bytes, seconds: motion.seconds, placeholder: placeholder)
        }
        var stats = try await renderStill(&plan, cpu: cpu)
        stats.made += motion.made
        stats.bytes += motion.bytes
        for (name, value) in motion.seconds { stats.seconds[name, default: 0] += value }
        return stats
    }

    /// The still's derivatives (or a clip's poster and web file) that the plan found missing.
    private func renderStill(_ plan: inout PhotoPlan, cpu: WorkBudget) async throws -> RenderStats {
        if plan.missing.isEmpty, let placeholder = state.placeholder(plan.keys.thumbnail) {
            return RenderStats(made: 0, bytes: 0, seconds: [:], placeholder: placeholder)
        }
        if let video = plan.facts.video {
            let hash = plan.original.hash
            return try await Self.at(.imaging) {
                try await rememberingFailure(ofClip: hash) { try await renderVideo(&plan, video: video, cpu: cpu) }
            }
        }
        return try await Self.at(.imaging) {
            let data = try await originalBytes(of: plan.photo, &plan.original)
            return try await render(data, folder: plan.folder, keys: plan.keys, missing: plan.missing, cpu: cpu)
        }
    }

    /// What linking a photo's files into the staging folder did.
    struct Linked: Sendable {
        var blobKeys: [Digest]
        var original: OriginalLink
        /// The published original's blob key, when there is one.
        var originalKey: Digest?
        var made = 0
        var reused = 0
        var bytes = 0
    }

    /// The link into staging: every derivative from the cache, and the published original (stored
    /// first when the cache lacks it).
    private func link(_ plan: inout PhotoPlan) async throws -> Linked {
        var linked = Linked(
            blobKeys: plan.keys.files.map(\.key), original: .none, reused: plan.keys.files.count - plan.missing.count)
        for (path, key) in plan.keys.files {
            if plan.held.contains(path) {
                try writer?.keep(path)
                continue
            }
            guard let file = await state.images.file(key) else {
                throw StoreError(
                    .missingFile, "\(state.images.store.path(key)): cached image vanished during the build")
            }
            plan.learnt.add(file)
            try writer?.link(file, to: path)
        }
        // A clip's "full size" is its web file; its original is never published (it carries the
        // camera's location keys, and a browser may not play it).
        if plan.facts.video != nil {
            linked.original = .published(SiteLayout.videoFile(id: plan.photo.id))
        } else if plan.photo.image.filePath == nil {
            // Which kind of location, from its text: a `URL` made per photo only to ask this costs.
            linked.original = .remote(plan.photo.image.description)
        } else if let published = Self.publishedOriginal(plan.facts.format, policy: publishOriginals) {
            // A gain map kept (`images.hdr`) makes other bytes, under a key of their own.
            let gainMap = published.stripped && processor.settings.hdr && plan.facts.gainMap != nil
            var name = CacheKey(published.stripped ? "original without location v1" : "original")
            name.add(plan.original.hash)
            if gainMap { name.add("with its gain map v1") }
            let key = name.finish()
            let path = "\(plan.folder)/original.\(published.fileExtension)"
            var file: BlobFile?
            if writer?.holds(key, of: state.images, at: path) == true {
                try writer?.keep(path)
                linked.reused += 1
            } else if let intact = await state.images.file(key) {
                file = intact
                linked.reused += 1
            } else {
                let data = try await originalBytes(of: plan.photo, &plan.original)
                let content =
                    published.stripped ? try PublishedOriginal.strippedJPEG(data, keepingGainMap: gainMap) : data
                file = try state.images.put(content, key: key)
                linked.made += 1
                linked.bytes += content.count
            }
            if let file {
                plan.learnt.add(file)
                try writer?.link(file, to: path)
            }
            linked.blobKeys.append(key)
            linked.original = .published(path)
            linked.originalKey = key
        }
        return linked
    }

    /// The photo's gallery item and the state row it leaves.
    private func finish(
        _ plan: PhotoPlan, placeholder: Placeholder, linked: Linked, made: Int, bytes: Int,
        seconds: [BuildStep: Double]
    ) throws -> (GalleryItem, Published) {
        let photo = plan.photo
        let original = plan.original
        let prior = plan.prior
        let position = plan.position
        let merged = PhotoMetadata.merge(photo: photo, facts: plan.facts)
        // A motion whose clip could not be made leaves a still (its warning says why).
        let motionPath = Self.motionPath(plan)
        let hasMotion = plan.keys.files.contains { $0.path == motionPath }
        var item = GalleryItem(
            photo: merged, displaySize: plan.layout.display, plan: plan.layout.plan,
            averageColor: placeholder.averageColor, placeholderKey: plan.keys.thumbnail, original: linked.original,
            video: plan.facts.video, hasMotion: hasMotion)
        if hasMotion { item.animation = animation(plan.facts, layout: plan.layout) }
        // An original published as-is keeps its GPS tags: downloads give the largest derivative.
        if plan.facts.video == nil,
            Self.publishedOriginal(plan.facts.format, policy: publishOriginals)?.stripped == false
        {
            item.originalDownloadable = false
        }
        // The download's blob, so an album's zip is keyed by its members' files (`AlbumZips`).
        let download = item.downloadPath
        item.downloadKey = plan.keys.files.first { $0.path == download }?.key ?? linked.originalKey
        let row = PhotoState(
            id: photo.id, position: position, metadataHash: try Self.metadataHash(photo),
            location: photo.image.description,
            etag: original.etag, lastModified: original.lastModified, fileSize: original.stamp?.size,
            fileModified: original.stamp?.modified, contentHash: original.hash, blobKeys: linked.blobKeys,
            thumbnailKey: plan.keys.thumbnail)
        var status = Status.new
        if let prior {
            let same =
                prior.metadataHash == row.metadataHash && prior.location == row.location
                && prior.contentHash == row.contentHash
            status = same ? .unchanged : .changed
        }
        var unchangedRow = row
        unchangedRow.position = prior?.position ?? -1
        var published = Published(
            row: row, writeRow: true, status: status, made: made, reused: linked.reused, bytes: bytes,
            seconds: seconds, warnings: placeholder.warnings + plan.warnings, learnt: plan.learnt)
        if let prior, unchangedRow == prior {
            // The state's row, which shares its strings with the snapshot: 100,000 unchanged
            // photos would otherwise hold a second copy of every hash and key.
            published.row = prior
            published.row.position = position
            published.writeRow = false
        }
        // The text the state stores for a row it writes, made now so the build need not keep the
        // manifest's photos until the state step. An images-only build (no writer) writes no rows.
        if published.writeRow && writer != nil { published.metadata = try photo.canonicalJSON() }
        return (item, published)
    }

    /// Whether the original of a local photo is published, and how: JPEGs without location and serial
    /// numbers by default; other formats only `as-is`, since their tags cannot be stripped losslessly
    /// here (their photo pages link the largest derivative instead).
    static func publishedOriginal(_ format: ImageFormat, policy: OriginalsPolicy) -> (
        stripped: Bool, fileExtension: String
    )? {
        switch policy {
        case .none: return nil
        // A camera raw is no file a browser can show, and hundreds of them would fill the site: its page links the largest derivative.
        case .asIs: return format == .raw ? nil : (false, format.fileExtension)
        case .stripped: return format == .jpeg ? (true, "jpg") : nil
        }
    }

    /// Decodes the original once and encodes the missing files into the cache, unless a photo
    /// with the same bytes and settings is already doing exactly that.
    func render(
        _ data: Data, folder: String, keys: DerivativeKeys, missing: [(path: String, key: Digest)],
        cpu: WorkBudget
    ) async throws -> RenderStats {
        var shared = CacheKey("render")
        for (_, key) in keys.files { shared.add(key) }
        shared.add(keys.thumbnail)
        let wanted = Set(missing.map(\.path))
        let keyByPath = Dictionary(keys.files.map { ($0.path, $0.key) }, uniquingKeysWith: { first, _ in first })
        let processor = processor
        let state = state
        let (stats, ranHere) = try await renders.run(shared.finish()) {
            let job = try processor.inspect(data, folder: folder)
            let image = try await cpu.run(pixels: processor.heldPixels(job)) {
                try processor.render(job, encoding: wanted)
            }
            func key(_ path: String) throws -> Digest {
                guard let key = keyByPath[path] else {
                    throw StoreError(.unplanned, "\(path): made without a planned key")
                }
                return key
            }
            for (derivative, bytes) in image.encoded { _ = try state.images.put(bytes, key: try key(derivative.path)) }
            for (derivative, bytes) in image.webp { _ = try state.images.put(bytes, key: try key(derivative.webpPath)) }
            for (derivative, bytes) in image.avif { _ = try state.images.put(bytes, key: try key(derivative.avifPath)) }
            let placeholder = Placeholder(
                averageColor: image.averageColor, dataURI: image.placeholder, warnings: image.warnings)
            let bytes = (image.encoded + image.webp + image.avif).reduce(0) { $0 + $1.data.count }
            return RenderStats(
                made: image.encoded.count + image.webp.count + image.avif.count, bytes: bytes,
                seconds: Dictionary(uniqueKeysWithValues: image.seconds.map { (BuildStep($0.key), $0.value) }),
                placeholder: Found(placeholder, isNew: true))
        }
        // Made by another photo with the same bytes and settings: its files count as reused here.
        return ranHere
            ? stats : RenderStats(made: 0, bytes: 0, seconds: [:], placeholder: stats.placeholder, madeByAnother: true)
    }

    /// Digest of a photo's mapped metadata, which tells whether it changed since the last build.
    /// (The JSON text the state stores is only made for rows that are written, `Photo.canonicalJSON`.)
    package static func metadataHash(_ photo: Photo) throws -> Digest {
        var key = CacheKey("photo metadata")
        try InputDigest.add(photo, to: &key)
        return key.finish()
    }

}
