import Foundation
import GalleryModel
import NIOConcurrencyHelpers

/// The last build's photo rows of one source, read from the state a window at a time as the
/// `images` step reaches them (`prefetch`), and kept only for the photos at hand: the rows of the
/// last `recent` to twice as many photos asked for. A photo asked for outside its window (a test,
/// a failed photo at the state step) is read on its own. Thread-safe.
package final class PriorPhotos: Sendable {
    package let source: String
    /// Where the rows are; nil knows no rows (an images-only build, a test).
    private let database: StateDatabase?
    private let books = NIOLockedValueBox(Books())
    /// Photos whose rows are kept at least (two generations of up to this many each).
    static let recent = 2048

    /// Rows read lately, by id; nil for an id the state has no row of.
    private struct Books {
        var recent: [String: StateDatabase.PriorRow?] = [:]
        var before: [String: StateDatabase.PriorRow?] = [:]

        func atHand(_ id: String) -> StateDatabase.PriorRow?? {
            recent[id] ?? before[id]
        }

        mutating func keep(_ row: StateDatabase.PriorRow?, _ id: String) {
            if recent.count >= PriorPhotos.recent { (before, recent) = (recent, [:]) }
            recent[id] = .some(row)
        }
    }

    package init(source: String, database: StateDatabase?) {
        self.source = source
        self.database = database
    }

    /// Reads the rows of a window of photos with one query; those at hand are not read again.
    package func prefetch(_ ids: [String]) async throws {
        guard let database else { return }
        let wanted = books.withLockedValue { books in ids.filter { books.atHand($0) == nil } }
        guard !wanted.isEmpty else { return }
        let found = try await database.priorRows(source: source, ids: wanted)
        books.withLockedValue { books in for id in wanted { books.keep(found[id], id) } }
    }

    /// The photo's row of the last build, with its `rowid`; nil when it was not in the last manifest.
    package func row(_ id: String) throws -> StateDatabase.PriorRow? {
        guard let database else { return nil }
        if let known = books.withLockedValue({ $0.atHand(id) }) { return known }
        let found = try database.priorRow(source: source, id: id)
        books.withLockedValue { $0.keep(found, id) }
        return found
    }
}
