import NIOConcurrencyHelpers

/// How many requests a deploy lets run at once, halved when the store throttles and grown back one
/// at a time while requests succeed (additive increase, multiplicative decrease, as TCP and AWS's
/// "adaptive" retry mode do).
///
/// A request takes a slot (`acquire`) before it is sent and gives it back with its outcome
/// (`release`). Throttling answers to requests sent before the last halving do not halve again:
/// a burst of `SlowDown`s to requests already in flight is one signal, not one per request.
/// A task cancelled while it waits leaves the queue at once with `CancellationError`.
package final class AdaptiveConcurrency: Sendable {
    /// What became of a request that held a slot.
    package enum Outcome: Sendable {
        case succeeded
        case throttled
        case failed
    }

    /// A held slot: the generation of the limit it was given under.
    package struct Ticket: Sendable {
        fileprivate var generation: Int
    }

    private struct Waiter {
        var id: Int
        var resume: CheckedContinuation<Ticket, Error>
    }

    private struct State {
        var limit: Int
        var lowest: Int
        var active = 0
        var generation = 0
        var successes = 0
        var waiting: [Waiter] = []
        var nextWaiter = 0
    }

    /// The most requests at once, where the limit starts and what it grows back to.
    package let maximum: Int
    private let state: NIOLockedValueBox<State>

    package init(maximum: Int) {
        self.maximum = max(1, maximum)
        state = NIOLockedValueBox(State(limit: self.maximum, lowest: self.maximum))
    }

    /// Requests allowed at once now.
    package var limit: Int { state.withLockedValue { $0.limit } }
    /// The lowest the limit has been.
    package var lowest: Int { state.withLockedValue { $0.lowest } }

    /// Waits for a slot.
    /// - Throws: `CancellationError` when the task is cancelled before or while it waits.
    package func acquire() async throws -> Ticket {
        try Task.checkCancellation()
        let id = state.withLockedValue { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (resume: CheckedContinuation<Ticket, Error>) in
                // Deciding and queueing under one lock: a slot freed in between cannot be missed.
                let admitted = state.withLockedValue { state -> Ticket? in
                    if state.active < state.limit && state.waiting.isEmpty {
                        state.active += 1
                        return Ticket(generation: state.generation)
                    }
                    state.waiting.append(Waiter(id: id, resume: resume))
                    return nil
                }
                if let admitted {
                    resume.resume(returning: admitted)
                } else if Task.isCancelled {
                    withdraw(id)  // cancelled before it was queued
                }
            }
        } onCancel: {
            withdraw(id)
        }
    }

    /// Gives a slot back: a throttled request halves the limit (once per generation), a run of
    /// `limit` successes raises it by one up to `maximum`; then waiters get the slots now free.
    package func release(_ ticket: Ticket, _ outcome: Outcome) {
        let woken = state.withLockedValue { state -> [(CheckedContinuation<Ticket, Error>, Ticket)] in
            state.active -= 1
            switch outcome {
            case .throttled where ticket.generation == state.generation:
                state.limit = max(1, state.limit / 2)
                state.lowest = min(state.lowest, state.limit)
                state.generation += 1
                state.successes = 0
            case .succeeded:
                state.successes += 1
                if state.successes >= state.limit && state.limit < maximum {
                    state.limit += 1
                    state.successes = 0
                }
            default: break
            }
            var woken: [(CheckedContinuation<Ticket, Error>, Ticket)] = []
            while state.active < state.limit && !state.waiting.isEmpty {
                state.active += 1
                woken.append((state.waiting.removeFirst().resume, Ticket(generation: state.generation)))
            }
            return woken
        }
        for (resume, ticket) in woken { resume.resume(returning: ticket) }
    }

    /// Takes a cancelled waiter out of the queue and resumes it with `CancellationError`; nothing
    /// when it was given a slot already (its task then releases the slot as usual).
    private func withdraw(_ id: Int) {
        let cancelled = state.withLockedValue { state -> CheckedContinuation<Ticket, Error>? in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiting.remove(at: index).resume
        }
        cancelled?.resume(throwing: CancellationError())
    }
}
