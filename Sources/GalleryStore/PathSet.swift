import Foundation

/// A set of paths shared by a build's parallel tasks: the files a build staged, the folders it
/// has made sure exist.
package final class PathSet: @unchecked Sendable {
    private let lock = NSLock()
    private var paths = Set<String>()

    package init() {}

    package func insert(_ path: String) { _ = lock.withLock { paths.insert(path) } }

    package func contains(_ path: String) -> Bool { lock.withLock { paths.contains(path) } }
}
