import Foundation

#if canImport(Glibc)
    import CMalloc
#endif

/// Keeps glibc's allocator from holding on to freed pixel buffers, so a build's memory follows
/// `--jobs` and the photos in flight, not the machine's core count.
///
/// Left alone, glibc gives threads up to 8 arenas per core and, after the first large buffer is
/// freed, raises its mmap threshold (up to 32 MB), so derivative-sized buffers (a 1600 px bitmap is
/// 5 MB, its float rows more) are then carved from arenas that keep the memory after `free`. On a
/// 16-core machine that made `-j 1` peak at 723 MB against 239 MB on 2 cores. A fixed 1 MB
/// threshold puts every buffer of that size in its own mapping, returned to the system when freed,
/// and four arenas serve the small allocations. `MALLOC_ARENA_MAX` or `MALLOC_MMAP_THRESHOLD_` in
/// the environment still win.
enum MallocTuning {
    static func apply() {
        #if canImport(Glibc)
            let environment = ProcessInfo.processInfo.environment
            if environment["MALLOC_ARENA_MAX"] == nil { _ = mallopt(M_ARENA_MAX, 4) }
            if environment["MALLOC_MMAP_THRESHOLD_"] == nil { _ = mallopt(M_MMAP_THRESHOLD, 1 << 20) }
        #endif
    }
}
