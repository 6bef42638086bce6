import Foundation

/// The per-photo part of the `images` step: fetch → imaging → stage, for many photos in parallel.
///
/// At most `jobs` photos are in flight, so decoding and encoding use at most that many cores and
/// at most that many decoded bitmaps are held in memory. Results keep manifest order.
struct PhotoPublisher: Sendable {
    let fetcher: OriginalFetcher
    let processor: ImageProcessor
    let writer: StagedWriter
    let publishOriginals: Bool

    struct Outcome {
        var items: [GalleryItem] = []
        var failures: [BuildReport.Failure] = []
        var derivatives = 0
        var bytes = 0
        var seconds: [String: Double] = [:]
    }

    private struct Published: Sendable {
        var item: GalleryItem
        var derivatives: Int
        var bytes: Int
        var seconds: [String: Double]
    }

    /// Publishes every photo; returns in manifest order.
    /// - Parameters:
    ///   - jobs: Photos decoded and encoded at once (CPU-bound work).
    ///   - inFlight: Photos in progress at once, so downloads overlap with imaging. Bounds the
    ///     originals held in memory.
    ///   - progress: Called after each photo with the number done and the total.
    func publishAll(_ photos: [Photo], jobs: Int, inFlight: Int, progress: @Sendable (Int, Int) -> Void) async -> Outcome {
        var results = [Result<Published, FailureBox>?](repeating: nil, count: photos.count)
        let cpu = AsyncSemaphore(permits: jobs)
        var done = 0
        await withTaskGroup(of: (Int, Result<Published, FailureBox>).self) { group in
            var next = 0
            func startNext() {
                guard next < photos.count else { return }
                let index = next
                next += 1
                group.addTask { (index, await publish(photos[index], cpu: cpu)) }
            }
            for _ in 0..<min(max(jobs, inFlight), photos.count) { startNext() }
            for await (index, result) in group {
                results[index] = result
                done += 1
                progress(done, photos.count)
                startNext()
            }
        }
        var outcome = Outcome()
        for result in results {
            switch result {
            case .success(let published)?:
                outcome.items.append(published.item)
                outcome.derivatives += published.derivatives
                outcome.bytes += published.bytes
                for (name, value) in published.seconds { outcome.seconds[name, default: 0] += value }
            case .failure(let box)?: outcome.failures.append(box.failure)
            case nil: break
            }
        }
        return outcome
    }

    private struct FailureBox: Error {
        var failure: BuildReport.Failure
    }

    private func publish(_ photo: Photo, cpu: AsyncSemaphore) async -> Result<Published, FailureBox> {
        var seconds: [String: Double] = [:]
        var stage = "fetch"
        do {
            var clock = ContinuousClock.now
            let original = try await fetcher.fetch(photo.image)
            seconds["fetch"] = GalleryCore.seconds(since: clock)

            stage = "imaging"
            clock = ContinuousClock.now
            let folder = "photos/\(photo.id)"
            let image = try await cpu.run { try processor.process(original, folder: folder) }
            seconds["imaging"] = GalleryCore.seconds(since: clock)

            stage = "write"
            clock = ContinuousClock.now
            var bytes = 0
            for (derivative, data) in image.encoded {
                try writer.write(data, to: derivative.path)
                bytes += data.count
            }
            var link = OriginalLink.none
            switch photo.image {
            case .remote(let url): link = .remote(url)
            case .file where publishOriginals:
                let path = "\(folder)/original.\(image.format == .png ? "png" : "jpg")"
                try writer.write(original, to: path)
                bytes += original.count
                link = .published(path)
            case .file: break
            }
            seconds["write"] = GalleryCore.seconds(since: clock)

            var merged = photo
            merged.camera = photo.camera.filling(from: image.exif.camera)
            merged.takenAt = photo.takenAt ?? image.exif.takenAt
            let item = GalleryItem(photo: merged, displaySize: image.displaySize, plan: image.plan,
                                   averageColor: image.averageColor, original: link)
            return .success(Published(item: item, derivatives: image.encoded.count, bytes: bytes, seconds: seconds))
        } catch {
            let fetch = error as? FetchError
            return .failure(FailureBox(failure: BuildReport.Failure(id: photo.id, location: photo.image.description,
                                                                   stage: stage, status: fetch?.status,
                                                                   reason: fetch?.reason ?? "\(error)")))
        }
    }
}

/// A counting semaphore for async code: at most `permits` bodies run at once.
actor AsyncSemaphore {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(permits: Int) {
        available = max(1, permits)
    }

    nonisolated func run<T: Sendable>(_ body: @Sendable () throws -> T) async throws -> T {
        await acquire()
        do {
            let result = try body()
            await release()
            return result
        } catch {
            await release()
            throw error
        }
    }

    private func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    private func release() {
        if waiting.isEmpty {
            available += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}
