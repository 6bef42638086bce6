import Foundation
import GalleryConfig
import GalleryFetch
import GalleryImaging
import GalleryKeys
import GalleryModel
import GalleryStore

/// The clips of a build: the encoder (ffmpeg, when installed) and the queue that bounds the encodes.
package struct VideoWork: Sendable {
    package let encoder: VideoEncoder
    /// At most one encode per four cores at once (x264 keeps `VideoEncoder.encoderThreads` busy),
    /// so photos keep flowing beside a long clip.
    package let queue: TaskLimit

    package init(encoder: VideoEncoder, jobs: Int) {
        self.encoder = encoder
        queue = TaskLimit(max(1, jobs / 4))
    }

    /// A build's: ffmpeg from the options' tool path, the queue sized by its jobs.
    package init(_ settings: VideoSettings, options: BuildOptions) {
        self.init(encoder: VideoEncoder.find(settings: settings, path: options.toolPath), jobs: options.jobs)
    }
}

/// Runs at most `limit` bodies at once; the others wait their turn in order.
package actor TaskLimit {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    package init(_ limit: Int) { self.limit = max(1, limit) }

    package func run<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        if running >= limit { await withCheckedContinuation { waiting.append($0) } } else { running += 1 }
        defer { release() }
        try Task.checkCancellation()
        return try await body()
    }

    /// Hands the slot to the next in line, or frees it.
    private func release() {
        if waiting.isEmpty { running -= 1 } else { waiting.removeFirst().resume() }
    }
}

extension PhotoPublisher {
    /// Whether a local file's first bytes are a video container's (`VideoSignature`).
    static func startsAsVideo(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        return VideoSignature.matches((try? handle.read(upToCount: MediaSignature.prefixLength)) ?? Data())
    }

    /// Whether this original is a clip: its bytes (when read) or its first bytes on disk say so.
    func isVideo(_ photo: Photo, _ original: Original) -> Bool {
        if original.isVideo { return true }
        if let data = original.data { return VideoSignature.matches(data) }
        return photo.image.filePath.map(Self.startsAsVideo) ?? false
    }

    /// A file ffmpeg can read: a local clip where it is, a download written to a temporary file
    /// (which `cleanUp` removes).
    func videoFile(of photo: Photo, _ original: inout Original) async throws -> (
        url: URL, cleanUp: @Sendable () -> Void
    ) {
        if let path = photo.image.filePath { return (URL(fileURLWithPath: path), {}) }
        return try Self.temporaryFile(try await originalBytes(of: photo, &original), name: "clip")
    }

    /// Bytes written to a temporary file for ffmpeg, and what removes it.
    static func temporaryFile(_ data: Data, name: String) throws -> (url: URL, cleanUp: @Sendable () -> Void) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "galleryssg-\(name)-\(UUID().uuidString)")
        try data.write(to: url)
        return (url, { try? FileManager.default.removeItem(at: url) })
    }

    /// Makes a web file from `file` in the encode queue and moves it into the cache under `key`.
    /// - Returns: Its size in bytes.
    func makeWebFile(_ file: URL, video: VideoInfo, key: Digest, sound: Bool = true) async throws -> Int {
        let scratch = try state.images.store.scratchPath(for: key)
        let encoder = videos.encoder
        try await videos.queue.run { try await encoder.webVideo(file, video: video, to: scratch, sound: sound) }
        return try state.images.adopt(scratch, key: key).record?.size ?? 0
    }

    /// Probes a clip and returns the facts its poster is planned from.
    func videoFacts(_ photo: Photo, _ original: inout Original) async throws -> OriginalFacts {
        let (file, cleanUp) = try await videoFile(of: photo, &original)
        defer { cleanUp() }
        return videos.encoder.posterFacts(try await videos.encoder.probe(file))
    }

    /// A clip's keys: its poster's derivatives, keyed under the poster's hash, then its web file.
    func videoKeys(_ photo: Photo, hash: Digest, facts: OriginalFacts, video: VideoInfo, layout: ImageLayout)
        -> DerivativeKeys
    {
        var keys = processor.keys(
            contentHash: videos.encoder.posterHash(contentHash: hash, video: video), facts: facts, layout: layout)
        keys.files.append(
            (path: SiteLayout.videoFile(id: photo.id), key: videos.encoder.webKey(contentHash: hash, video: video)))
        return keys
    }

    /// Makes what a clip's plan found missing: the web file (in the encode queue, moved into the
    /// cache when done), and the poster's derivatives from a frame ffmpeg picks, through the image path.
    func renderVideo(_ plan: inout PhotoPlan, video: VideoInfo, cpu: WorkBudget) async throws -> RenderStats {
        let webPath = SiteLayout.videoFile(id: plan.photo.id)
        let web = plan.missing.first { $0.path == webPath }
        let images = plan.missing.filter { $0.path != webPath }
        let cached = state.placeholder(plan.keys.thumbnail)
        if web == nil, images.isEmpty, let cached {
            return RenderStats(made: 0, bytes: 0, seconds: [:], placeholder: cached)
        }
        let (file, cleanUp) = try await videoFile(of: plan.photo, &plan.original)
        defer { cleanUp() }
        var made = 0
        var bytes = 0
        var seconds: [BuildStep: Double] = [:]
        if let web {
            let clock = ContinuousClock.now
            bytes += try await makeWebFile(file, video: video, key: web.key)
            made += 1
            seconds[.video] = clock.secondsElapsed
        }
        guard !images.isEmpty || cached == nil else {
            return RenderStats(made: made, bytes: bytes, seconds: seconds, placeholder: cached!)
        }
        let clock = ContinuousClock.now
        let poster = try await videos.encoder.poster(file, video: video)
        seconds[.poster] = clock.secondsElapsed
        var stats = try await render(poster, folder: plan.folder, keys: plan.keys, missing: images, cpu: cpu)
        stats.made += made
        stats.bytes += bytes
        stats.madeByAnother = stats.madeByAnother && web == nil
        for (name, value) in seconds { stats.seconds[name, default: 0] += value }
        return stats
    }

    /// The motion file and its key: a Live Photo's clip, named by its path, size and modification
    /// time (reading it to hash it would cost every build a read of every clip) or, for a download
    /// (Immich's), by its URL; or a motion photo's, named by the photo's content hash; and the settings.
    func motionKey(_ photo: Photo, hash: Digest, facts: OriginalFacts) throws -> (path: String, key: Digest)? {
        var key = CacheKey("motion")
        key.add(VideoEncoder.version)
        if let url = photo.motion?.remoteURL {
            key.add(url.absoluteString)
        } else if let motion = photo.motion {
            guard let path = motion.filePath, let stamp = FileStamp.of(path) else {
                throw FetchError(
                    file: URL(fileURLWithPath: motion.description), "the Live Photo's clip is gone; build again")
            }
            key.add(path)
            key.add(stamp.size)
            key.add(stamp.modified)
        } else if facts.motionClip != nil, !facts.format.canAnimate {  // an animation's is `animationKey`
            key.add(hash)
        } else {
            return nil
        }
        key.add(videos.encoder.settings.maxHeight)
        key.add(videos.encoder.settings.crf)
        key.add(videos.encoder.settings.maxBitrate)
        return (SiteLayout.motionFile(id: photo.id), key.finish())
    }

    /// Makes the motion file when the plan lacks it: the clip without its sound, upright, in H.264.
    /// A clip that cannot be made leaves the photo a still, with a warning that says why.
    func renderMotion(_ plan: inout PhotoPlan) async throws -> (made: Int, bytes: Int, seconds: [BuildStep: Double]) {
        let path = SiteLayout.motionFile(id: plan.photo.id)
        guard let missing = plan.missing.first(where: { $0.path == path }) else { return (0, 0, [:]) }
        let clock = ContinuousClock.now
        var name = "motion photo clip"
        var cleanUp: @Sendable () -> Void = {}
        defer { cleanUp() }
        do {
            let file: URL
            if let motion = plan.photo.motion?.filePath {
                name = "Live Photo clip \((motion as NSString).lastPathComponent)"
                file = URL(fileURLWithPath: motion)
            } else if let motion = plan.photo.motion, motion.remoteURL != nil {
                // A source's clip (Immich's `livePhotoVideoId`), downloaded through the cache, written out for ffmpeg.
                name = "Live Photo clip"
                (file, cleanUp) = try Self.temporaryFile(try await fetcher.fetchOriginal(motion).data, name: "motion")
            } else {
                // The clip is the original's last bytes (`MotionPhoto`), written out for ffmpeg.
                let data = try await originalBytes(of: plan.photo, &plan.original)
                guard let range = plan.facts.motionClip.flatMap({ MotionPhoto.clip(in: data, length: $0) }) else {
                    throw ImagingError.format(.video, "the motion photo's clip is not where its XMP says")
                }
                (file, cleanUp) = try Self.temporaryFile(data.subdata(in: range), name: "motion")
            }
            let facts = try await videos.encoder.probe(file)
            let bytes = try await makeWebFile(file, video: facts.info, key: missing.key, sound: false)
            return (1, bytes, [.video: clock.secondsElapsed])
        } catch let error as CancellationError {
            throw error
        } catch {
            plan.keys.files.removeAll { $0.path == path }
            plan.warnings.append("\(name) not published: \(error)")
            return (0, 0, [:])
        }
    }
}
