import Foundation
import Testing

/// Compares a published page with its committed snapshot in Tests/Fixtures/snapshots, or records it.
///
/// With `GALLERYSSG_RECORD_SNAPSHOTS=1` in the environment the page is written as the new snapshot
/// and the check passes; otherwise the first differing line fails the test, with both lines and the
/// command that re-records. A whole page in the failure would bury the one line that changed.
enum HTMLSnapshot {
    static let folder = Fixtures.url("snapshots")
    static let recordVariable = "GALLERYSSG_RECORD_SNAPSHOTS"
    static var recording: Bool { ProcessInfo.processInfo.environment[recordVariable] == "1" }
    static let howToRecord =
        "if the change is intended, re-record with "
        + "\(recordVariable)=1 swift test --filter HTMLSnapshotTests and commit Tests/Fixtures/snapshots"

    /// Records `html` as snapshot `name`, or checks it against the committed one.
    static func check(_ html: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = folder.appendingPathComponent(name)
        if recording {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(html.utf8).write(to: file, options: .atomic)
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            Issue.record(
                "snapshot \(name) is missing from Tests/Fixtures/snapshots; \(howToRecord)",
                sourceLocation: sourceLocation)
            return
        }
        // Byte for byte: Swift's String == would call canonically equivalent texts (é as one
        // scalar or as e and an accent) equal.
        guard data != Data(html.utf8) else { return }
        let expected = String(decoding: data, as: UTF8.self)
        if let difference = firstDifference(expected: expected, actual: html) {
            let message =
                "snapshot \(name) differs at line \(difference.line):\n"
                + "  snapshot: \(difference.expected)\n  built:    \(difference.actual)\n\(howToRecord)"
            Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
        }
    }

    /// The first line (1-based) where the two texts differ, with both lines; nil when they are equal.
    ///
    /// Long lines (a grid tile with its inline placeholder runs to 1,500 characters) are cut to
    /// `context` characters either side of the first differing character.
    static func firstDifference(expected: String, actual: String, context: Int = 80)
        -> (line: Int, expected: String, actual: String)?
    {
        guard !expected.utf8.elementsEqual(actual.utf8) else { return nil }
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        for index in 0..<max(old.count, new.count) {
            let left = index < old.count ? String(old[index]) : nil
            let right = index < new.count ? String(new[index]) : nil
            if let left, let right, left.utf8.elementsEqual(right.utf8) { continue }
            guard let left, let right else {
                return (
                    index + 1, left.map { excerpt($0, 0, context) } ?? "(end of file)",
                    right.map { excerpt($0, 0, context) } ?? "(end of file)"
                )
            }
            let column = zip(left, right).prefix { $0 == $1 }.count
            return (index + 1, excerpt(left, column, context), excerpt(right, column, context))
        }
        // Not reached (the bytes differ, so some line does); never let a difference pass silently.
        return (1, "(\(expected.utf8.count) bytes)", "(\(actual.utf8.count) bytes)")
    }

    /// `line` quoted, or the part of it around character `column` when it is long.
    static func excerpt(_ line: String, _ column: Int, _ context: Int) -> String {
        guard line.count > 2 * context else { return "\"\(line)\"" }
        let start = max(0, column - context)
        let end = min(line.count, column + context)
        let characters = Array(line)
        return "(column \(column + 1)) " + (start > 0 ? "…" : "") + "\"\(String(characters[start..<end]))\""
            + (end < line.count ? "…" : "")
    }
}
