import Foundation
import Testing

/// `galleryssg --version`: the version and the commit, in the one format that
/// Scripts/test-package.sh and users' scripts read.
@Suite struct VersionTests {
    @Test func versionNamesTheVersionAndTheCommit() throws {
        let process = Process()
        process.executableURL = try IncrementalFixtures.cli()
        process.arguments = ["--version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()

        #expect(process.terminationStatus == 0)
        // `swift build` links no commit (only Scripts/package.sh does), so a test build says "unknown".
        let line = try #require(text.split(separator: "\n").first.map(String.init))
        #expect(
            line.wholeMatch(of: /galleryssg \d+\.\d+\.\d+ \(commit (unknown|[0-9a-f]{7}(-dirty)?)\)/) != nil,
            "unexpected --version output: \(text)")
    }
}
