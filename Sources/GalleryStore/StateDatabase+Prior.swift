import Foundation
import GRDB
import GalleryModel

/// The last build's photo rows and page records, read as a build needs them: a window of rows or
/// pages per query, never the whole table. A no-op build of 1,000,000 photos that loaded both whole
/// held 0.9 KB a photo of them (1.8 GB in all); each read here holds one window.
///
/// The `photo` and `page` tables do not change while a build runs (its rows and pages wait in the
/// pending tables until its state step), so a row's `rowid` names it for the whole build.
extension StateDatabase {
    /// A photo's row of the last build, with the `rowid` that finds it again (`priorRows(rowids:)`).
    package struct PriorRow: Sendable {
        package var rowid: Int64
        package var state: PhotoState
    }

    /// The rows of these photos of `source`, by id; ids without a row are left out.
    package func priorRows(source: String, ids: [String]) async throws -> [String: PriorRow] {
        guard !ids.isEmpty else { return [:] }
        return try await queue.read { db in try Self.priorRows(source: source, ids: ids, in: db) }
    }

    /// One photo's row, for a caller that cannot wait (`priorRows(source:ids:)` reads a window).
    func priorRow(source: String, id: String) throws -> PriorRow? {
        try queue.read { db in try Self.priorRows(source: source, ids: [id], in: db)[id] }
    }

    private static func priorRows(source: String, ids: [String], in db: Database) throws -> [String: PriorRow] {
        var found: [String: PriorRow] = [:]
        try forEachRow(
            in: db, of: ids, before: [source],
            sql: { "SELECT \(rowColumns), rowid FROM photo WHERE source = ? AND id IN (\($0))" }
        ) { row in
            guard let state = try photoState(row) else { return }
            found[state.id] = PriorRow(rowid: row[11], state: state)
        }
        return found
    }

    /// The rows with these `rowid`s, by `rowid`.
    package func priorRows(rowids: [Int64]) async throws -> [Int64: PhotoState] {
        guard !rowids.isEmpty else { return [:] }
        return try await queue.read { db in
            var found: [Int64: PhotoState] = [:]
            found.reserveCapacity(rowids.count)
            try Self.forEachRow(
                in: db, of: rowids, sql: { "SELECT \(Self.rowColumns), rowid FROM photo WHERE rowid IN (\($0))" }
            ) { row in
                if let state = try Self.photoState(row) { found[row[11]] = state }
            }
            return found
        }
    }

    /// The last build's rows that this build's manifest no longer lists (`listed`: the `rowid`s of
    /// those it does, sorted), and the rows of every other source, which are all orphans.
    package func unlistedRows(source: String, listed: [Int64]) async throws -> (
        removed: [PhotoState], otherSources: [PhotoState]
    ) {
        let (removed, others) = try await queue.read { db -> ([Int64], [Int64]) in
            var removed: [Int64] = []
            var others: [Int64] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT rowid, source = ? FROM photo", arguments: [source])
            while let row = try rows.next() {
                let rowid: Int64 = row[0]
                if !(row[1] as Bool) {
                    others.append(rowid)
                } else if !Self.contains(listed, rowid) {
                    removed.append(rowid)
                }
            }
            return (removed, others)
        }
        let rows = try await priorRows(rowids: removed + others)
        return (removed.compactMap { rows[$0] }, others.compactMap { rows[$0] })
    }

    /// Whether a sorted array holds `value` (bisection).
    private static func contains(_ sorted: [Int64], _ value: Int64) -> Bool {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == value
    }

    /// The pending rows with metadata (new and changed photos) whose positions are in `positions`,
    /// in manifest order.
    /// - Throws: `StoreError` for a row this build cannot have written.
    package func pendingRows(positions: ClosedRange<Int>) async throws -> [PhotoState] {
        try await queue.read { db in
            try Row.fetchAll(
                db,
                sql: """
                    SELECT \(Self.rowColumns) FROM pending_photo WHERE metadata IS NOT NULL AND position BETWEEN ? AND ? ORDER BY position
                    """, arguments: [positions.lowerBound, positions.upperBound]
            ).map { row in
                guard let state = try Self.photoState(row) else {
                    throw StoreError(
                        .damaged, "\(self.file.path): the pending row of \(row[0] as String? ?? "?") is damaged")
                }
                return state
            }
        }
    }

    /// The last build's records of these pages, by path; paths it did not publish are left out.
    package func priorPages(paths: [String]) async throws -> [String: PageRecord] {
        guard !paths.isEmpty else { return [:] }
        return try await queue.read { db in
            var found: [String: PageRecord] = [:]
            try Self.forEachRow(
                in: db, of: paths, sql: { "SELECT path, key, inputs FROM page WHERE path IN (\($0))" }
            ) { row in
                guard let key = try Self.digest(row, 1) else { return }
                found[row[0]] = PageRecord(inputs: try Self.digest(row, 2), key: key)
            }
            return found
        }
    }

    /// The last build's pages after `path` (from the first when nil), in path order, at most
    /// `limit`; a key that is not a key (a state damaged by hand) is nil.
    package func priorPages(after path: String?, limit: Int) async throws -> [(path: String, key: Digest?)] {
        try await queue.read { db in
            let rows = try Row.fetchCursor(
                db, sql: "SELECT path, key FROM page WHERE path > ? ORDER BY path LIMIT ?",
                arguments: [path ?? "", limit])
            var window: [(path: String, key: Digest?)] = []
            window.reserveCapacity(limit)
            while let row = try rows.next() { window.append((row[0], try Self.digest(row, 1))) }
            return window
        }
    }

    /// Parameters bound per query: well under SQLite's limit of 32,766.
    package static let readWindow = 4096

    /// Runs a query whose `IN (…)` list is `values`, `readWindow` of them at a time (SQLite caps the
    /// number of arguments), and hands each row to `body`. `sql` receives the window's `?, ?, …`;
    /// `before` are the arguments that come before the list.
    private static func forEachRow<Value: DatabaseValueConvertible>(
        in db: Database, of values: [Value], before: [any DatabaseValueConvertible] = [],
        sql: (String) -> String, _ body: (Row) throws -> Void
    ) throws {
        for start in stride(from: 0, to: values.count, by: readWindow) {
            let part = values[start..<min(start + readWindow, values.count)]
            let rows = try Row.fetchCursor(
                db, sql: sql(marks(part.count)), arguments: StatementArguments(before + part.map { $0 }))
            while let row = try rows.next() { try body(row) }
        }
    }

    private static func marks(_ count: Int) -> String {
        String(repeating: "?, ", count: max(0, count - 1)) + "?"
    }
}
