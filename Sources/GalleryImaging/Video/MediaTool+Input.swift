import Foundation

/// A tool's standard input, written by galleryssg while the tool runs (`MediaTool.run(input:)`):
/// raw frames ffmpeg encodes as they come, so no frame is held or written to disk beyond the one
/// being sent.
///
/// The input is one end of a Unix socket pair rather than a pipe: a write after the tool stopped
/// reading (it reached its `-t` limit, or failed) is sent with `MSG_NOSIGNAL` and returns an error,
/// where a pipe would raise SIGPIPE and end the whole build.
package final class StandardInput: @unchecked Sendable {
    private let descriptor: Int32
    /// Set once the tool stopped reading; every later write does nothing.
    private var closed = false

    fileprivate init(descriptor: Int32) { self.descriptor = descriptor }

    /// Sends all of `bytes`; false when the tool no longer reads (the writer should stop).
    package func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !closed, var base = bytes.baseAddress else { return !closed }
        var left = bytes.count
        while left > 0 {
            let sent = send(descriptor, base, left, Int32(MSG_NOSIGNAL))
            if sent < 0 {
                if errno == EINTR { continue }
                closed = true
                return false
            }
            base += sent
            left -= sent
        }
        return true
    }

    /// The writer's run: its thread, and the error its body threw, if any.
    final class Feed: @unchecked Sendable {
        /// The end the child reads, as its standard input.
        let childEnd: FileHandle
        private let input: StandardInput
        private let body: @Sendable (StandardInput) throws -> Void
        private let lock = NSLock()
        private var failure: (any Error)?
        private var done = false
        private var waiter: CheckedContinuation<(any Error)?, Never>?
        private var started = false

        init(_ body: @escaping @Sendable (StandardInput) throws -> Void) throws {
            var ends: [Int32] = [0, 0]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0 else {
                throw ImagingError(
                    .toolFailed, description: "could not make the tool's input: \(String(cString: strerror(errno)))")
            }
            childEnd = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            input = StandardInput(descriptor: ends[0])
            self.body = body
        }

        /// A feed never started (the tool could not start) closes its end here.
        deinit { if !started { close(input.descriptor) } }

        /// Starts writing on a thread of its own (the writes block while the tool is busy).
        func start() {
            started = true
            // The child has its own copy of its end now: closing ours lets it see the input's end.
            try? childEnd.close()
            let thread = Thread { [self] in
                var thrown: (any Error)?
                do { try body(input) } catch { thrown = error }
                // Closing the socket is the end of the input: the tool then finishes its file.
                close(input.descriptor)
                lock.lock()
                failure = thrown
                done = true
                let waiting = waiter
                waiter = nil
                lock.unlock()
                waiting?.resume(returning: thrown)
            }
            thread.stackSize = 1 << 20
            thread.start()
        }

        /// Waits for the writer to end; the error its body threw, if any.
        func finished() async -> (any Error)? {
            await withCheckedContinuation { continuation in
                lock.lock()
                if done {
                    lock.unlock()
                    continuation.resume(returning: failure)
                } else {
                    waiter = continuation
                    lock.unlock()
                }
            }
        }
    }
}
