import Foundation
import Synchronization

/// A set of paths shared by a build's parallel tasks: the files a build staged, the folders it
/// has made sure exist.
package final class PathSet: Sendable {
    private let paths = Mutex(Set<String>())

    package init() {}

    package func insert(_ path: String) { _ = paths.withLock { $0.insert(path) } }

    package func contains(_ path: String) -> Bool { paths.withLock { $0.contains(path) } }

    /// How many paths the set holds.
    package var count: Int { paths.withLock { $0.count } }

    /// Every path in the set, in no order.
    package var all: [String] { paths.withLock { Array($0) } }
}
