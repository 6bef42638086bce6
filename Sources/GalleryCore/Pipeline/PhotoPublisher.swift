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
    ///   - pixelBudget: Decoded pixels allowed in memory at once across all jobs; a single photo larger
    ///     than the budget runs alone.
    func publishAll(_ photos: [Photo], jobs: Int, inFlight: Int, pixelBudget: Int,
                    progress: @Sendable (Int, Int) -> Void) async -> Outcome {
        var results = [Result<Published, FailureBox>?](repeating: nil, count: photos.count)
        let cpu = WorkBudget(jobs: jobs, pixels: pixelBudget)
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

    private func publish(_ photo: Photo, cpu: WorkBudget) async -> Result<Published, FailureBox> {
        var seconds: [String: Double] = [:]
        var stage = "fetch"
        do {
            var clock = ContinuousClock.now
            let original = try await fetcher.fetch(photo.image)
            seconds["fetch"] = GalleryCore.seconds(since: clock)

            stage = "imaging"
            clock = ContinuousClock.now
            let folder = "photos/\(photo.id)"
            let job = try processor.inspect(original, folder: folder)
            let image = try await cpu.run(pixels: job.decodeSize.pixelCount) { try processor.render(job) }
            seconds["imaging"] = GalleryCore.seconds(since: clock)
            for (name, value) in image.seconds { seconds[name] = value }

            stage = "write"
            clock = ContinuousClock.now
            var bytes = 0
            let files = image.encoded.map { ($0.derivative.path, $0.data) } + image.webp.map { ($0.derivative.webpPath, $0.data) }
            for (path, data) in files {
                try writer.write(data, to: path)
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
            merged.location = photo.location ?? image.exif.location
            let item = GalleryItem(photo: merged, displaySize: image.displaySize, plan: image.plan,
                                   averageColor: image.averageColor, placeholder: image.placeholder, original: link)
            return .success(Published(item: item, derivatives: files.count, bytes: bytes, seconds: seconds))
        } catch {
            let fetch = error as? FetchError
            return .failure(FailureBox(failure: BuildReport.Failure(id: photo.id, location: photo.image.description,
                                                                   stage: stage, status: fetch?.status,
                                                                   reason: fetch?.reason ?? "\(error)")))
        }
    }
}

/// Admits CPU-bound work while fewer than `jobs` run and their decoded pixels fit in the budget.
///
/// This bounds both the cores used and the memory held by decoded bitmaps, whatever the number of
/// photos; a photo bigger than the whole budget waits until nothing else runs, then runs alone.
actor WorkBudget {
    private let jobs: Int
    private let pixels: Int
    private var running = 0
    private var used = 0
    private var waiting: [(pixels: Int, resume: CheckedContinuation<Void, Never>)] = []

    init(jobs: Int, pixels: Int) {
        self.jobs = max(1, jobs)
        self.pixels = max(1, pixels)
    }

    nonisolated func run<T: Sendable>(pixels weight: Int, _ body: @Sendable () throws -> T) async throws -> T {
        await acquire(weight)
        do {
            let result = try body()
            await release(weight)
            return result
        } catch {
            await release(weight)
            throw error
        }
    }

    private func fits(_ weight: Int) -> Bool {
        running == 0 || (running < jobs && used + weight <= pixels)
    }

    private func acquire(_ weight: Int) async {
        if waiting.isEmpty && fits(weight) {
            running += 1
            used += weight
            return
        }
        await withCheckedContinuation { waiting.append((weight, $0)) }
    }

    private func release(_ weight: Int) {
        running -= 1
        used -= weight
        // Admit waiters in order while they fit, so a large photo is not starved by small ones.
        while let next = waiting.first, fits(next.pixels) {
            waiting.removeFirst()
            running += 1
            used += next.pixels
            next.resume.resume()
        }
    }
}
