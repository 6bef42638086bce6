import Foundation
import GRDB

/// Queries for `galleryssg cache stats` and `galleryssg cache gc`.
extension StateDatabase {
    /// What the state refers to: every blob key of every photo and page, and every photo's location.
    package struct References: Sendable {
        package var blobKeys: Set<String> = []
        package var locations: Set<String> = []
        package var photos = 0
    }

    package func references() throws -> References {
        try queue.read { db in
            var references = References()
            let rows = try Row.fetchCursor(db, sql: "SELECT blobKeys, location FROM photo")
            while let row = try rows.next() {
                let keys: String = row[0]
                references.blobKeys.formUnion(keys.split(separator: " ").map(String.init))
                references.locations.insert(row[1])
                references.photos += 1
            }
            references.blobKeys.formUnion(try String.fetchAll(db, sql: "SELECT key FROM page"))
            return references
        }
    }

    /// The counts of the most recent builds, newest first.
    package func recentBuilds(limit: Int = StateDatabase.historyLength) throws -> [(
        finishedAt: String, counts: BuildCounts
    )] {
        let rows = try queue.read { db in
            try Row.fetchAll(
                db, sql: "SELECT finishedAt, counts FROM build ORDER BY id DESC LIMIT ?", arguments: [limit])
        }
        let decoder = JSONDecoder()
        return rows.compactMap { row in
            let text: String = row[1]
            guard let counts = try? decoder.decode(BuildCounts.self, from: Data(text.utf8)) else { return nil }
            return (row[0], counts)
        }
    }

    /// The number of the last recorded build, or nil when none is: what a site's `SiteMarker` records,
    /// so `deploy` can tell a site that a later build did not publish.
    package func lastBuildID() throws -> Int64? {
        try queue.read { db in try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM build") }
    }

    /// Forgets blobs, and the facts and placeholders no photo uses any more.
    package func forget(blobKeys: [String]) throws {
        try queue.write { db in
            let statement = try db.makeStatement(sql: "DELETE FROM blob WHERE key = ?")
            for key in blobKeys { try statement.execute(arguments: [key]) }
            try db.execute(sql: "DELETE FROM original WHERE hash NOT IN (SELECT contentHash FROM photo)")
            try db.execute(sql: "DELETE FROM placeholder WHERE key NOT IN (SELECT thumbnailKey FROM photo)")
        }
    }

    /// Keys of every recorded blob.
    package func recordedBlobKeys() throws -> [String] {
        try queue.read { db in try String.fetchAll(db, sql: "SELECT key FROM blob") }
    }
}
