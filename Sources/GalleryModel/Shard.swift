import Foundation

/// The K-th of N stable slices of a site's photos, for an images-only build on one of N machines
/// (`build --images-only --shard K/N`).
///
/// A photo belongs to the slice its original's location hashes to: the SHA-256 of the location as
/// `SourceRoot.key` writes it (a local file's path relative to the source, a download's URL), taken
/// as a number modulo N. Slicing by the original's bytes would make every machine read every
/// original first; the location is known from the manifest alone, is the same on every machine
/// whatever folder the site is checked out in, and needs no seed. Photos that share one location
/// share one slice. Two files with the same bytes in two places may land on two slices: both make
/// the same files under the same keys, which costs time but never correctness.
public struct Shard: Sendable, Equatable, CustomStringConvertible {
    /// 1 to `count`.
    package let index: Int
    package let count: Int

    /// The most slices a site may be cut into.
    static let maxCount = 10_000

    /// Every photo: an images-only build without `--shard`.
    public static let all = Shard(validIndex: 1, count: 1)

    private init(validIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// - Throws: `ShardError` unless 1 ≤ `index` ≤ `count` ≤ `maxCount`.
    package init(_ index: Int, of count: Int) throws {
        guard (1...Self.maxCount).contains(count) else {
            throw ShardError(.countOutOfRange, "the number of shards must be 1 to \(Self.maxCount), got \(count)")
        }
        guard (1...count).contains(index) else {
            throw ShardError(.indexOutOfRange, "the shard must be 1 to \(count), got \(index)")
        }
        self.init(validIndex: index, count: count)
    }

    /// Reads `K/N`, such as `2/4`.
    /// - Throws: `ShardError` saying what is wrong with the text.
    public init(parsing text: String) throws {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ShardError(.notKOfN, "\"\(text)\" is not K/N, such as 2/4 for the second of four slices")
        }
        try self.init(index, of: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// The name of the file its learnt facts go to in the cache's `learnt/` folder.
    package var learntFileName: String { "shard-\(index)-of-\(count).json" }

    /// Whether the photo whose original has this location key (`SourceRoot.key`) is in the slice.
    package func contains(locationKey key: String) -> Bool {
        guard count > 1 else { return true }
        let number = Digest.sha256(Data(key.utf8)).leadingWord
        return Int(number % UInt64(count)) == index - 1
    }
}

/// A `--shard` value that is not K/N with 1 ≤ K ≤ N.
package typealias ShardError = KindedFailure<ShardErrorKind>

/// What went wrong, for a `ShardError`.
package enum ShardErrorKind: Sendable, Equatable {
    /// The text is not two whole numbers with a slash between them.
    case notKOfN
    /// N is not 1 to `Shard.maxCount`.
    case countOutOfRange
    /// K is not 1 to N.
    case indexOutOfRange
}
