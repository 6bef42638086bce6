import Foundation
import NIOConcurrencyHelpers

/// A set of paths shared by a build's parallel tasks: the files a build staged, the folders it
/// has made sure exist.
package final class PathSet: Sendable {
    private let paths = NIOLockedValueBox(Set<String>())

    package init() {}

    package func insert(_ path: String) { _ = paths.withLockedValue { $0.insert(path) } }

    package func contains(_ path: String) -> Bool { paths.withLockedValue { $0.contains(path) } }

    package func remove(_ path: String) { _ = paths.withLockedValue { $0.remove(path) } }

    /// How many paths the set holds.
    package var count: Int { paths.withLockedValue { $0.count } }

    /// Every path in the set, in no order.
    package var all: [String] { paths.withLockedValue { Array($0) } }
}
