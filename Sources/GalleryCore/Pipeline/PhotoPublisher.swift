import Foundation

/// The per-photo part of the `images` step: fetch → imaging → stage, for many photos in parallel,
/// reusing whatever the build state already has.
///
/// For each photo the original is identified first (a local file by size and modification time, a
/// download by URL), its derivatives are planned and keyed from header facts alone, and only the
/// files missing from the cache are made: an unchanged photo is not read, decoded or encoded at
/// all, just linked from the cache into the staging folder. At most `jobs` photos decode at once,
/// within the pixel budget. Results keep manifest order.
struct PhotoPublisher: Sendable {
    let fetcher: OriginalFetcher
    let processor: ImageProcessor
    /// Where the photos' files are staged; nil for an images-only build, which only fills the cache.
    let writer: StagedWriter?
    let publishOriginals: OriginalsPolicy
    let state: BuildState
    /// Renders in progress, so photos with the same bytes and settings share one decode and encode.
    private let renders = SharedWork<RenderStats>()

    init(fetcher: OriginalFetcher, processor: ImageProcessor, writer: StagedWriter?, publishOriginals: OriginalsPolicy, state: BuildState) {
        self.fetcher = fetcher
        self.processor = processor
        self.writer = writer
        self.publishOriginals = publishOriginals
        self.state = state
    }

    struct RenderStats: Sendable {
        var made: Int
        var bytes: Int
        var seconds: [String: Double]
    }

    func attempt(_ photo: Photo, position: Int, cpu: WorkBudget, trustPrior: Bool) async throws -> (GalleryItem, Published) {
        var seconds: [String: Double] = [:]
        var stage = "fetch"
        func staged<T>(_ body: () async throws -> T) async throws -> T {
            do { return try await body() } catch let error as PhotoFailure { throw error } catch { throw PhotoFailure(stage: stage, error: error) }
        }
        let prior = state.prior(photo.id)
        let folder = "photos/\(photo.id)"
        var clock = ContinuousClock.now
        var original = try await staged { try await identify(photo, known: trustPrior ? state.knownOriginals(photo, prior: prior) : []) }
        seconds["fetch"] = GalleryCore.seconds(since: clock)

        stage = "imaging"
        clock = ContinuousClock.now
        let facts = try await staged { () async throws -> OriginalFacts in
            if let known = state.facts(original.hash) { return known }
            let facts = try ImageProcessor.facts(of: try await originalBytes(of: photo, &original))
            state.remember(facts, hash: original.hash)
            return facts
        }
        let layout = try await staged { try processor.layout(facts, folder: folder) }
        let keys = processor.keys(contentHash: original.hash, facts: facts, layout: layout)
        let missing = keys.files.filter { !state.images.isIntact($0.key) }
        var made = 0
        var bytes = 0
        if !missing.isEmpty || state.placeholder(keys.thumbnail) == nil {
            let data = try await staged { try await originalBytes(of: photo, &original) }
            let stats = try await staged { try await render(data, folder: folder, keys: keys, missing: missing, cpu: cpu) }
            made = stats.made
            bytes = stats.bytes
            for (name, value) in stats.seconds { seconds[name] = value }
        }
        guard let placeholder = state.placeholder(keys.thumbnail) else {
            throw PhotoFailure(stage: stage, error: StoreError("placeholder missing after rendering"))
        }
        seconds["imaging"] = GalleryCore.seconds(since: clock)

        stage = "write"
        clock = ContinuousClock.now
        var blobKeys = keys.files.map(\.key)
        var reused = keys.files.count - made
        var link = OriginalLink.none
        try await staged {
            for (path, key) in keys.files {
                guard let file = state.images.file(key) else { throw StoreError("\(state.images.store.path(key)): cached image vanished during the build") }
                try writer?.link(file, to: path)
            }
            switch photo.image {
            case .remote(let url): link = .remote(url)
            case .file:
                guard let published = Self.publishedOriginal(facts.format, policy: publishOriginals) else { break }
                var name = CacheKey(published.stripped ? "original without location v1" : "original")
                name.add(original.hash)
                let key = name.finish()
                var file = state.images.file(key)
                if file != nil {
                    reused += 1
                } else {
                    let data = try await originalBytes(of: photo, &original)
                    let content = published.stripped ? try PublishedOriginal.strippedJPEG(data) : data
                    file = try state.images.put(content, key: key)
                    made += 1
                    bytes += content.count
                }
                let path = "\(folder)/original.\(published.fileExtension)"
                try writer?.link(file!, to: path)
                blobKeys.append(key)
                link = .published(path)
            }
        }
        seconds["write"] = GalleryCore.seconds(since: clock)

        let merged = PhotoMetadata.merge(photo: photo, facts: facts)
        let item = GalleryItem(photo: merged, displaySize: layout.display, plan: layout.plan,
                               averageColor: placeholder.averageColor, placeholder: placeholder.dataURI, original: link)
        let metadataHash = try await staged { try Self.metadataHash(photo) }
        let row = PhotoState(id: photo.id, position: position, metadataHash: metadataHash, location: photo.image.description,
                             etag: original.etag, lastModified: original.lastModified, fileSize: original.stamp?.size,
                             fileModified: original.stamp?.modified, contentHash: original.hash, blobKeys: blobKeys,
                             thumbnailKey: keys.thumbnail)
        var status = Status.new
        if let prior {
            let same = prior.metadataHash == row.metadataHash && prior.location == row.location && prior.contentHash == row.contentHash
            status = same ? .unchanged : .changed
        }
        var unchangedRow = row
        unchangedRow.position = prior?.position ?? -1
        if let prior, unchangedRow == prior {
            // The state's row, which shares its strings with the snapshot: 100,000 unchanged
            // photos would otherwise hold a second copy of every hash and key.
            var same = prior
            same.position = position
            return (item, Published(row: same, writeRow: false, status: status, made: made, reused: reused, bytes: bytes,
                                    seconds: seconds, warnings: placeholder.warnings))
        }
        return (item, Published(row: row, writeRow: true, status: status, made: made, reused: reused,
                                bytes: bytes, seconds: seconds, warnings: placeholder.warnings))
    }

    /// Whether the original of a local photo is published, and how: JPEGs without location and serial
    /// numbers by default; other formats only `as-is`, since their tags cannot be stripped losslessly
    /// here (their photo pages link the largest derivative instead).
    static func publishedOriginal(_ format: ImageFormat, policy: OriginalsPolicy) -> (stripped: Bool, fileExtension: String)? {
        switch policy {
        case .none: return nil
        case .asIs: return (false, format.fileExtension)
        case .stripped: return format == .jpeg ? (true, "jpg") : nil
        }
    }

    /// The original as this build knows it: its content hash, and its bytes once they were read.
    private struct Original: Sendable {
        var hash: String
        var data: Data?
        var etag: String?
        var lastModified: String?
        var stamp: FileStamp?
        /// Whether `hash` was taken from the state rather than computed from the bytes.
        var trusted: Bool
    }

    /// Finds the original's content hash, reading it only when the state cannot vouch for it.
    ///
    /// A local file is trusted when its path, size and modification time match what the last build
    /// or an images-only build saw (`known`); a download when its URL does (photo hosts give a
    /// changed photo a new URL; `--force` fetches every original again).
    private func identify(_ photo: Photo, known: [KnownOriginal]) async throws -> Original {
        let location = photo.image.description
        var stamp: FileStamp?
        if case .file(let url) = photo.image {
            stamp = FileStamp.of(url.path)
            guard stamp != nil else { throw FetchError(file: url, "file not found or not readable") }
        }
        if let prior = known.first(where: { $0.location == location && $0.fileSize == stamp?.size
                                               && $0.fileModified == stamp?.modified }) {
            return Original(hash: prior.contentHash, data: nil, etag: prior.etag, lastModified: prior.lastModified, stamp: stamp,
                            trusted: true)
        }
        let fetched = try await fetcher.fetchOriginal(photo.image)
        return Original(hash: CacheKey.sha256(fetched.data), data: fetched.data, etag: fetched.etag,
                        lastModified: fetched.lastModified, stamp: stamp, trusted: false)
    }

    /// The original's bytes, fetched now if they were not read yet.
    /// - Throws: `StaleOriginal` when they no longer hash to the trusted content hash.
    private func originalBytes(of photo: Photo, _ original: inout Original) async throws -> Data {
        if let data = original.data { return data }
        let fetched = try await fetcher.fetchOriginal(photo.image)
        guard CacheKey.sha256(fetched.data) == original.hash else { throw StaleOriginal() }
        original.data = fetched.data
        return fetched.data
    }

    /// Decodes the original once and encodes the missing files into the cache, unless a photo
    /// with the same bytes and settings is already doing exactly that.
    private func render(_ data: Data, folder: String, keys: DerivativeKeys, missing: [(path: String, key: String)],
                        cpu: WorkBudget) async throws -> RenderStats {
        var shared = CacheKey("render")
        for (_, key) in keys.files { shared.add(key) }
        shared.add(keys.thumbnail)
        let wanted = Set(missing.map(\.path))
        let keyByPath = Dictionary(keys.files.map { ($0.path, $0.key) }, uniquingKeysWith: { first, _ in first })
        let processor = processor, state = state
        return try await renders.run(shared.finish(), waiter: { _ in RenderStats(made: 0, bytes: 0, seconds: [:]) }) {
            let job = try processor.inspect(data, folder: folder)
            let image = try await cpu.run(pixels: job.decodeSize.pixelCount) { try processor.render(job, encoding: wanted) }
            for (derivative, bytes) in image.encoded { try state.images.put(bytes, key: keyByPath[derivative.path] ?? "") }
            for (derivative, bytes) in image.webp { try state.images.put(bytes, key: keyByPath[derivative.webpPath] ?? "") }
            state.remember(Placeholder(averageColor: image.averageColor, dataURI: image.placeholder, warnings: image.warnings),
                           key: keys.thumbnail)
            let bytes = (image.encoded + image.webp).reduce(0) { $0 + $1.data.count }
            return RenderStats(made: image.encoded.count + image.webp.count, bytes: bytes, seconds: image.seconds)
        }
    }

    /// Digest of a photo's mapped metadata, which tells whether it changed since the last build.
    /// (The JSON text the state stores is only made for rows that are written, `Photo.canonicalJSON`.)
    static func metadataHash(_ photo: Photo) throws -> String {
        var key = CacheKey("photo metadata")
        try InputDigest.add(photo, to: &key)
        return key.finish()
    }

}
