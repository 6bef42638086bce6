import Foundation

/// How many decoded pixels a build keeps in flight when `images.maxPixelsInFlight` is not set.
///
/// A job's weight is the bitmap it really decodes (a JPEG's DCT-scaled size, not the original's
/// pixels), so the budget is set against memory, not against photo counts: half of what is
/// available, at `bytesPerPixel` per decoded pixel. It never drops below `floor`, and on a machine
/// with 8 GB or more available it always lets `--jobs` photos of up to 50 MP run together, so the
/// budget bounds memory without throttling a machine that has it.
package enum PixelBudget {
    /// Memory a job holds per decoded pixel: the 8-bit RGB bitmap (3 bytes), plus the first
    /// cascade step (at most a quarter of the pixels) and the filter's float rows.
    static let bytesPerPixel = 4
    /// The budget on a machine whose memory cannot be read, and the least on any machine.
    package static let floor = 48_000_000
    /// The photo size every job must have room for on a machine with 8 GB available.
    static let largePhoto = 50_000_000
    package static let ceiling = 2_000_000_000

    /// The budget for `jobs` parallel jobs with `availableBytes` of memory (nil: unknown).
    package static func automatic(jobs: Int, availableBytes: Int?) -> Int {
        guard let available = availableBytes, available > 0 else { return floor }
        var budget = max(floor, available / 2 / bytesPerPixel)
        if available >= 8 << 30 { budget = max(budget, max(1, jobs) * largePhoto) }
        return min(budget, ceiling)
    }

    /// Memory this process may still use: the kernel's `MemAvailable`, capped by the room left
    /// under a cgroup v2 (`memory.max`) or v1 (`memory.limit_in_bytes`) limit, as in a container.
    /// Nil where none of these can be read.
    package static func availableBytes(root: String = "") -> Int? {
        func read(_ path: String) -> String? { try? String(contentsOfFile: root + path, encoding: .utf8) }
        func number(_ path: String) -> Int? {
            read(path).flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        var available: Int?
        if let meminfo = read("/proc/meminfo"),
            let line = meminfo.split(separator: "\n").first(where: { $0.hasPrefix("MemAvailable:") }),
            let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
        {
            available = kilobytes * 1024
        }
        // cgroup v2, then v1; "max" or a huge v1 value means no limit.
        let limits = [
            (number("/sys/fs/cgroup/memory.max"), number("/sys/fs/cgroup/memory.current")),
            (
                number("/sys/fs/cgroup/memory/memory.limit_in_bytes"),
                number("/sys/fs/cgroup/memory/memory.usage_in_bytes")
            )
        ]
        for case let (limit?, used) in limits where limit < 1 << 50 {
            let room = max(0, limit - (used ?? 0))
            available = min(available ?? room, room)
            break
        }
        return available
    }
}
