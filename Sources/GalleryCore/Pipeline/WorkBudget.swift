import Foundation

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
