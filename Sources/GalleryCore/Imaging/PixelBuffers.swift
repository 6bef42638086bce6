import Foundation

/// Big pixel buffers, handed back after each photo and reused by the next.
///
/// A decoded photo and its resized copies are megabytes each. Freed, glibc returns them to the
/// kernel (the binary sets `M_MMAP_THRESHOLD` to 1 MB so freed pixels never pile up in malloc's
/// arenas), and the next photo's buffers are fresh pages again: on the benchmark corpus that was
/// about 5 CPU-seconds of page faults and page clearing in 42. Here a photo's buffers go back to a
/// small pool when it is done, and the next photo takes the smallest one that is large enough.
///
/// The pool is bounded: at most `limit` buffers, the smallest dropped first, and only buffers of at
/// least `minimumBytes` (smaller ones cost malloc nothing). It holds no more than the photos in flight
/// held at once, so it adds to neither the peak nor the steady memory beyond one photo's worth a job.
/// Buffers are plain `[UInt8]`: a buffer handed back while something else still shares it is only
/// copied when the next user writes to it, so a wrong hand-back costs a copy, never a wrong pixel.
final class PixelBuffers: @unchecked Sendable {
    /// The process's pool; `Build` sizes it for its jobs (`reserve(jobs:)`).
    static let shared = PixelBuffers()
    static let minimumBytes = 1 << 20

    private let lock = NSLock()
    private var free: [[UInt8]] = []
    private var limit = 8
    private(set) var reused = 0

    /// Keeps up to about four buffers a job: the decode, its colour or orientation copy, a resized
    /// derivative and its sharpened copy.
    func reserve(jobs: Int) {
        lock.withLock { limit = max(8, jobs * 4) }
    }

    /// A buffer of exactly `count` bytes. Its contents are undefined unless `zeroed`: callers that
    /// write every byte (the resampler, the sharpener, orientation, colour conversion) skip the clearing.
    func take(_ count: Int, zeroed: Bool = false) -> [UInt8] {
        guard count >= Self.minimumBytes else { return [UInt8](repeating: 0, count: count) }
        let found = lock.withLock { () -> [UInt8]? in
            guard let index = free.indices.filter({ free[$0].capacity >= count })
                    .min(by: { free[$0].capacity < free[$1].capacity }) else { return nil }
            reused += 1
            return free.remove(at: index)
        }
        guard var buffer = found else { return [UInt8](repeating: 0, count: count) }
        if buffer.count > count {
            buffer.removeLast(buffer.count - count)
        } else if buffer.count < count {
            buffer.append(contentsOf: repeatElement(0, count: count - buffer.count))
        }
        if zeroed { buffer.withUnsafeMutableBytes { $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        return buffer
    }

    /// Hands a buffer back for the next photo (it is dropped when too small, or the pool is full
    /// and it is the smallest).
    func recycle(_ buffer: consuming [UInt8]) {
        let buffer = consume buffer
        guard buffer.capacity >= Self.minimumBytes else { return }
        lock.withLock {
            free.append(buffer)
            if free.count > limit, let smallest = free.indices.min(by: { free[$0].capacity < free[$1].capacity }) {
                free.remove(at: smallest)
            }
        }
    }

    /// Hands back the pixels of bitmaps that are no longer needed, each buffer once (a resize to
    /// the same size returns its input, so two bitmaps may share one).
    func recycle(_ bitmaps: [Bitmap]) {
        var seen = Set<Int>()
        for bitmap in bitmaps where seen.insert(bitmap.storageAddress).inserted { recycle(bitmap.pixels) }
    }

    /// Buffers waiting to be reused.
    var count: Int { lock.withLock { free.count } }

    /// Empties the pool (tests, and the end of a build).
    func drain() {
        lock.withLock { free.removeAll() }
    }
}

extension Bitmap {
    /// Where the pixels live: equal for bitmaps that share one buffer.
    var storageAddress: Int {
        pixels.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
    }
}
