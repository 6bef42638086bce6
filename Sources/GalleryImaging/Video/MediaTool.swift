import Foundation

/// Debian's `ffprobe` and `ffmpeg`, run as child processes: a crafted file that crashes a decoder
/// takes down that process, never the build.
///
/// Each run gets an argument array (never a shell), a time limit after which it is killed, and its
/// output in a temporary file rather than a pipe (a child that writes more than a pipe holds never
/// blocks), read back up to a cap.
package struct MediaTool: Sendable {
    /// The tool's name, as the errors give it.
    package let name: String
    /// Its absolute path.
    package let path: String

    /// What one run printed and how it ended.
    package struct Output: Sendable {
        package var status: Int32
        package var stdout: Data
        /// The last part of what it wrote to stderr, for the error a failed run gives.
        package var stderr: String

        /// What it said, as an error shows it: its last three distinct lines, without the
        /// `[hevc @ 0x55d5…]` prefixes ffmpeg puts before them (an address differs on every run),
        /// joined with "; "; else its exit status.
        package var reason: String {
            var lines: [String] = []
            for line in stderr.split(whereSeparator: \.isNewline) {
                let text = line.replacing(/\[[^\]]* @ 0x[0-9a-fA-F]+\] */, with: "").trimmingCharacters(
                    in: .whitespaces)
                if !text.isEmpty && !lines.contains(text) { lines.append(text) }
            }
            return lines.isEmpty ? "exit status \(status)" : lines.suffix(3).joined(separator: "; ")
        }
    }

    /// The most of a tool's standard output that is read back.
    static let maxOutput = 16 << 20

    /// The tool called `name` in one of `path`'s folders (`/usr/bin` when there is no `PATH`), or nil.
    package static func find(_ name: String, path: String? = ProcessInfo.processInfo.environment["PATH"]) -> MediaTool?
    {
        let folders = path.map { $0.split(separator: ":").map(String.init) } ?? ["/usr/bin"]
        for folder in folders where !folder.isEmpty {
            let candidate = (folder as NSString).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate) { return MediaTool(name: name, path: candidate) }
        }
        return nil
    }

    /// Runs the tool with `arguments` and waits for it, killing it after `timeout` seconds.
    /// - Parameter input: Writes the tool's standard input (`pipe:0`) on a thread of its own, through
    ///   `StandardInput`; the input ends when it returns. Without it the tool reads nothing.
    /// - Throws: `ImagingError` when it cannot start or runs past the limit (it is killed first), or
    ///   what `input` threw (the tool is killed then).
    package func run(
        _ arguments: [String], timeout: Double, input: (@Sendable (StandardInput) throws -> Void)? = nil
    ) async throws -> Output {
        Self.log(path, arguments)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "galleryssg-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        // FileHandle(forWritingTo:) below fails, naming the file, where either could not be made.
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        defer {
            try? out.close()
            try? err.close()
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let feed = try input.map { try StandardInput.Feed($0) }
        process.standardInput = feed?.childEnd ?? FileHandle.nullDevice
        process.standardOutput = out
        process.standardError = err
        let ended = try await withTaskCancellationHandler {
            try await withThrowingTaskGroup(of: Bool.self) { group in
                let exit = ExitSignal()
                process.terminationHandler = { _ in Task { await exit.fire() } }
                do { try process.run() } catch {
                    throw ImagingError(
                        .toolMissing, description: "\(name) could not start: \(error.localizedDescription)")
                }
                feed?.start()
                group.addTask {
                    await exit.wait()
                    return true
                }
                group.addTask {
                    try? await Task.sleep(nanoseconds: UInt64(max(timeout, 0.1) * 1_000_000_000))
                    return false
                }
                let first = try await group.next() ?? false
                if !first {
                    Self.kill(process)
                    await exit.wait()
                }
                group.cancelAll()
                return first
            }
        } onCancel: {
            Self.kill(process)
        }
        // The feed ends when its body returns, or at its next write once the tool stopped reading.
        if let feed, let failure = await feed.finished() { throw failure }
        guard ended else {
            throw ImagingError(
                .toolFailed,
                description: "\(name) ran past its \(String(format: "%g", timeout)) s limit and was stopped")
        }
        let stdout = (try? FileHandle(forReadingFrom: outURL).readData(ofLength: Self.maxOutput)) ?? Data()
        let errors = (try? Data(contentsOf: errURL)) ?? Data()
        let tail = String(decoding: errors.suffix(2_000), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return Output(status: process.terminationStatus, stdout: stdout, stderr: tail)
    }
}

extension MediaTool {
    /// Where each run's command line is appended as a JSON array (the tool, then its arguments) when
    /// the environment names a file (`GALLERYSSG_TOOL_LOG`): to see what ffmpeg was asked, and for
    /// `Benchmarks/video.sh`, which runs the same commands directly.
    static let logFile: FileHandle? = ProcessInfo.processInfo.environment["GALLERYSSG_TOOL_LOG"].flatMap { path in
        // A log that cannot be made is no log (nil), as when the file cannot be opened.
        guard FileManager.default.createFile(atPath: path, contents: nil) else { return nil }
        return FileHandle(forWritingAtPath: path)
    }
    private static let logLock = NSLock()

    fileprivate static func log(_ path: String, _ arguments: [String]) {
        guard let logFile, let line = try? JSONSerialization.data(withJSONObject: [path] + arguments) else { return }
        logLock.lock()
        defer { logLock.unlock() }
        logFile.seekToEndOfFile()
        logFile.write(line + Data("\n".utf8))
    }

    /// Stops a child at once with SIGKILL. Not SIGTERM: a process that ignores SIGTERM (as the test
    /// runner does) passes that to its children, and a killed tool's half-written output is in a
    /// scratch folder that is removed anyway.
    fileprivate static func kill(_ process: Process) {
        guard process.isRunning else { return }
        _ = Glibc.kill(process.processIdentifier, SIGKILL)
    }
}

/// The child's exit, awaited once by the run and once more after a kill.
private actor ExitSignal {
    private var done = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    func fire() {
        done = true
        for waiter in waiters { waiter.resume() }
        waiters = []
    }

    func wait() async {
        if done { return }
        await withCheckedContinuation { waiters.append($0) }
    }
}
