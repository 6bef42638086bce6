import Foundation
import Testing

/// Bad arguments to the built `galleryssg`: status 2, the documented one, and the closest command or
/// option suggested; every command's `--help` lists its exit statuses.
@Suite struct CLIUsageTests {
    /// Runs the CLI and returns its exit status, stdout and stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = try IncrementalFixtures.cli()
        process.arguments = arguments
        process.currentDirectoryURL = try Fixtures.temporaryFolder()
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let err = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, out, err)
    }

    @Test func misspeltCommandsAndOptionsSuggestTheClosest() throws {
        let cases: [([String], String)] = [
            (["bulid"], "error: unknown command 'bulid' for galleryssg; did you mean 'build'? (see galleryssg --help)"),
            (["cache", "gcc"], "error: unknown command 'gcc' for galleryssg cache; did you mean 'gc'? (see galleryssg cache --help)"),
            (["frobnicate"], "error: unknown command 'frobnicate' for galleryssg; the commands are build, serve, init, clean, cache, deploy"),
            (["build", "--stirct"], "Error: Unknown option '--stirct'. Did you mean '--strict'?"),
            (["serve", "--port", "0"], "Error: --port must be between 1 and 65535"),
        ]
        for (arguments, expected) in cases {
            let (status, _, errors) = try Self.run(arguments)
            #expect(status == 2, "\(arguments): \(errors)")
            #expect(errors.contains(expected), "\(arguments): \(errors)")
        }
    }

    @Test func everyHelpListsItsExitStatuses() throws {
        for command in [[], ["build"], ["serve"], ["init"], ["clean"], ["cache", "stats"], ["cache", "gc"], ["deploy"]] {
            let (status, output, _) = try Self.run(command + ["--help"])
            #expect(status == 0)
            // Help is wrapped to the terminal's width, anywhere.
            let words = output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("Exit status: 0"), "\(command): \(output)")
        }
    }
}
