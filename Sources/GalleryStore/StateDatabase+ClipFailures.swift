import Foundation
import GRDB
import GalleryModel

/// A clip ffprobe or ffmpeg could not read, as the state remembers it: so that the next build
/// reports it again without running either tool, until the clip's bytes (its content hash) or the
/// tools (`tools`, their fingerprint) change.
package struct ClipFailure: Sendable, Equatable {
    /// How callers act on it, as `ImagingError.Kind` names it: `damaged` or `unsupported`.
    package var kind: String
    /// The reason in words, as the build reported it.
    package var reason: String
    /// What the tool printed, for `--report`.
    package var toolOutput: String?

    package init(kind: String, reason: String, toolOutput: String?) {
        self.kind = kind
        self.reason = reason
        self.toolOutput = toolOutput
    }
}

/// Remembered clip failures, written as they happen, in small transactions of their own (a row is
/// true whether or not the build that wrote it goes on to publish, like the learnt facts), and
/// read per clip when it is planned.
extension StateDatabase {
    /// The most failures kept; the oldest go first.
    static let maxClipFailures = 10_000

    /// The failure remembered for the clip with this content hash, with these tools; nil when none.
    package func clipFailure(_ hash: Digest, tools: String) throws -> ClipFailure? {
        try queue.unsafeRead { db in
            let statement = try db.cachedStatement(
                sql: "SELECT kind, reason, toolOutput FROM clipFailure WHERE hash = ? AND tools = ?")
            return try Row.fetchOne(statement, arguments: [hash.hex, tools]).map {
                ClipFailure(kind: $0[0], reason: $0[1], toolOutput: $0[2])
            }
        }
    }

    /// Remembers a clip's failure with these tools, in place of any it had with others.
    package func remember(_ failure: ClipFailure, hash: Digest, tools: String) throws {
        try queue.write { db in
            try db.execute(sql: "DELETE FROM clipFailure WHERE hash = ?", arguments: [hash.hex])
            try db.execute(
                sql: "INSERT INTO clipFailure (hash, tools, kind, reason, toolOutput) VALUES (?, ?, ?, ?, ?)",
                arguments: [hash.hex, tools, failure.kind, failure.reason, failure.toolOutput])
            try db.execute(
                sql: "DELETE FROM clipFailure WHERE rowid <= (SELECT MAX(rowid) FROM clipFailure) - ?",
                arguments: [Self.maxClipFailures])
        }
    }

    /// How many clip failures the state remembers.
    func clipFailureCount() throws -> Int {
        try queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM clipFailure") ?? 0 }
    }
}
