/// The state's photos of one source: the rows in manifest order, and an index from id to row.
///
/// A `[String: PhotoState]` of 100,000 rows needs 262,144 buckets (Swift keeps a dictionary at
/// most three quarters full) of about 200 bytes each, 52 MB; here each row is held once and the
/// index costs 24 bytes a bucket.
package struct PhotoTable: Sendable {
    /// The rows, in the order they were inserted.
    package private(set) var values: [PhotoState] = []
    private var index: [String: Int] = [:]

    package init(capacity: Int = 0) {
        values.reserveCapacity(capacity)
        index.reserveCapacity(capacity)
    }

    package var count: Int { values.count }

    /// Where the row with this id is in `values`.
    package func row(of id: String) -> Int? { index[id] }

    package subscript(id: String) -> PhotoState? {
        index[id].map { values[$0] }
    }

    /// Adds a row, or replaces the row with the same id in place.
    package mutating func insert(_ state: PhotoState) {
        if let row = index[state.id] {
            values[row] = state
        } else {
            index[state.id] = values.count
            values.append(state)
        }
    }
}
