import Foundation
import Testing

/// Bad arguments to the built `galleryssg`: status 2, the documented one, and the closest command or
/// option suggested; every command's `--help` lists its exit statuses and ends with examples.
@Suite struct CLIUsageTests {
    /// Runs the CLI and returns its exit status, stdout and stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = try IncrementalFixtures.cli()
        process.arguments = arguments
        process.currentDirectoryURL = try Fixtures.temporaryFolder()
        let output = Pipe()
        let errors = Pipe()
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
            (
                ["cache", "gcc"],
                "error: unknown command 'gcc' for galleryssg cache; did you mean 'gc'? (see galleryssg cache --help)"
            ),
            (
                ["frobnicate"],
                "error: unknown command 'frobnicate' for galleryssg; the commands are build, serve, init, clean, cache, check, deploy, schema, rekey"
            ),
            (["build", "--stirct"], "Error: Unknown option '--stirct'. Did you mean '--strict'?"),
            (["serve", "--port", "0"], "Error: --port must be between 1 and 65535")
        ]
        for (arguments, expected) in cases {
            let (status, _, errors) = try Self.run(arguments)
            #expect(status == 2, "\(arguments): \(errors)")
            #expect(errors.contains(expected), "\(arguments): \(errors)")
        }
    }

    /// An empty source and a template name nothing has are warned about with their place, listed
    /// again under the summary, and fail `build --strict` with status 3.
    @Test func emptySourcesAndTemplateWarningsFailStrictBuilds() throws {
        let folder = try Fixtures.temporaryFolder()
        for path in ["photos", "templates"] {
            try FileManager.default.createDirectory(
                at: folder.appendingPathComponent(path), withIntermediateDirectories: true)
        }
        try Data(#"{"source": {"type": "folder", "path": "photos"}, "templates": "templates"}"#.utf8)
            .write(to: folder.appendingPathComponent("site-config.json"))
        let config = folder.appendingPathComponent("site-config.json").path
        let empty = "no photos found in folder \(folder.appendingPathComponent("photos").path); the site will be empty"

        var (status, output, errors) = try Self.run(["build", "--config", config, "--quiet"])
        #expect(status == 0, "\(errors)")
        #expect(errors.contains("warning: \(empty)"), "\(errors)")
        #expect(output.contains("warning: \(empty)"), "the recap under the summary: \(output)")
        (status, _, errors) = try Self.run(["build", "--config", config, "--quiet", "--strict"])
        #expect(status == 3, "\(errors)")

        try FileManager.default.copyItem(
            at: Fixtures.url("images/photo-1.jpg"), to: folder.appendingPathComponent("photos/one.jpg"))
        try "{{<layout}}{{$content}}\n<h1>{{titel}}</h1>{{/content}}{{/layout}}"
            .write(to: folder.appendingPathComponent("templates/grid.mustache"), atomically: true, encoding: .utf8)
        (status, output, errors) = try Self.run(["build", "--config", config, "--quiet"])
        let warning =
            #"template grid.mustache, line 2, column 5: no page has a field "titel" (in {{titel}}); did you mean "title"?"#
        #expect(status == 0 && errors.contains(warning) && !errors.contains(empty), "\(errors)")
        (status, _, errors) = try Self.run(["build", "--config", config, "--quiet", "--strict"])
        #expect(status == 3, "\(errors)")
    }

    @Test func everyHelpListsItsExitStatuses() throws {
        for command in [
            [], ["build"], ["serve"], ["init"], ["clean"], ["cache", "stats"], ["cache", "gc"], ["check"], ["deploy"],
            ["schema"],
            ["rekey"]
        ] {
            let (status, output, _) = try Self.run(command + ["--help"])
            #expect(status == 0)
            // Help is wrapped to the terminal's width, anywhere.
            let words = output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
            #expect(words.contains("Exit status: 0"), "\(command): \(output)")
            let examples = "Examples: galleryssg " + (command.isEmpty ? "" : command.joined(separator: " ") + " ")
            #expect(words.contains(examples), "\(command): \(output)")
        }
    }
}
