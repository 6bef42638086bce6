import Foundation

#if os(Linux)
    import Glibc
#endif

/// Where the big pixel buffers of a photo come from: the decode, its colour and orientation copies,
/// and each resized and sharpened derivative.
///
/// The binary sets `M_MMAP_THRESHOLD` to 1 MB (`MallocTuning`), so every such buffer is mapped
/// fresh and returned to the kernel when freed, and freed pixels never pile up in malloc's arenas.
/// The price was paid in page faults: a fault per 4 KB page, the kernel zeroing each page, then the
/// buffer zeroed again by `[UInt8](repeating: 0, count:)` before the pixels were written over it.
/// On the benchmark corpus that was about 5.5 of 40 CPU-seconds in the kernel.
///
/// So a buffer here is asked to use transparent huge pages (`madvise(MADV_HUGEPAGE)`, one fault per
/// 2 MB, where the kernel allows them: `/sys/kernel/mm/transparent_hugepage/enabled` set to `always`
/// or `madvise`, Debian's default), and is only zeroed when the caller needs it: the resampler, the
/// sharpener, orientation and colour conversion write every byte of theirs. Memory is unchanged:
/// nothing is kept between photos. (A pool of buffers reused across photos was tried: it saved a
/// little more system time but held 230 MB more at the peak, since photos' sizes differ.)
package enum PixelBuffers {
    /// Buffers smaller than this come from malloc's arenas as before.
    package static let minimumBytes = 1 << 20

    /// A buffer of exactly `count` bytes. Its contents are undefined unless `zeroed`.
    package static func take(_ count: Int, zeroed: Bool = false) -> [UInt8] {
        guard count >= minimumBytes else { return [UInt8](repeating: 0, count: count) }
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            adviseHugePages(UnsafeMutableRawBufferPointer(buffer))
            if zeroed { UnsafeMutableRawBufferPointer(buffer).initializeMemory(as: UInt8.self, repeating: 0) }
            initialized = count
        }
    }

    /// Asks for huge pages for the whole 2 MB pages inside `buffer`, before anything touches them.
    private static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
            let huge = 2 << 20
            guard let base = buffer.baseAddress else { return }
            let start = (Int(bitPattern: base) + huge - 1) & ~(huge - 1)
            let end = (Int(bitPattern: base) + buffer.count) & ~(huge - 1)
            guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(pointer, end - start, MADV_HUGEPAGE)  // advice only: refused, the pages are small ones
        #endif
    }
}
