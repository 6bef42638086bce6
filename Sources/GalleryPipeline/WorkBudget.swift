import Foundation

/// Admits CPU-bound work while fewer than `jobs` run and their decoded pixels fit in the budget,
/// and runs each admitted job on a thread of its own.
///
/// This bounds both the cores used and the memory held by decoded bitmaps, whatever the number of
/// photos; a photo bigger than the whole budget waits until nothing else runs, then runs alone.
/// Jobs run on their own threads, not on Swift's cooperative pool: that pool has one thread per
/// core, so blocking it with pixel work would cap `--jobs` at the core count and stall the
/// downloads and page rendering that share it.
package actor WorkBudget {
    /// The most jobs and decoded pixels that were in flight at once.
    package struct Peaks: Sendable, Equatable {
        package var jobs = 0
        package var pixels = 0
    }

    private let jobs: Int
    private let pixels: Int
    private var running = 0
    private var used = 0
    private var waiting: [(pixels: Int, resume: CheckedContinuation<Void, Never>)] = []
    package private(set) var peaks = Peaks()

    package init(jobs: Int, pixels: Int) {
        self.jobs = max(1, jobs)
        self.pixels = max(1, pixels)
    }

    package nonisolated func run<T: Sendable>(pixels weight: Int, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        await acquire(weight)
        let result: Result<T, Error> = await withCheckedContinuation { done in
            let thread = Thread { done.resume(returning: Result { try body() }) }
            thread.stackSize = 8 << 20   // as the main thread's: decoders and encoders use the stack freely
            thread.start()
        }
        await release(weight)
        return try result.get()
    }

    private func fits(_ weight: Int) -> Bool {
        running == 0 || (running < jobs && used + weight <= pixels)
    }

    private func admit(_ weight: Int) {
        running += 1
        used += weight
        peaks.jobs = max(peaks.jobs, running)
        peaks.pixels = max(peaks.pixels, used)
    }

    private func acquire(_ weight: Int) async {
        if waiting.isEmpty && fits(weight) {
            admit(weight)
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
            admit(next.pixels)
            next.resume.resume()
        }
    }
}
