import GalleryModel

/// A table keyed by digests, for the state's large tables that a build reads but does not grow:
/// the keys and the values in two arrays in key order, found by binary search.
///
/// A Swift dictionary keeps at most three quarters of a power-of-two number of buckets in use, so
/// 200,000 blob records took 524,288 buckets of 80 bytes (42 MB); here they take 200,000 of them.
/// A lookup is about 18 comparisons of four words.
package struct DigestTable<Value: Sendable>: Sendable {
    package private(set) var keys: [Digest] = []
    package private(set) var values: [Value] = []
    private var inOrder = true

    package init(capacity: Int = 0) {
        keys.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
    }

    package var count: Int { keys.count }
    package var isEmpty: Bool { keys.isEmpty }

    /// Adds an entry. Entries may come in any order (`sort` puts them in key order); rows read
    /// `ORDER BY key` come in order already, since digests compare as their hex texts.
    package mutating func append(_ key: Digest, _ value: Value) {
        if let last = keys.last, !(last < key) { inOrder = false }
        keys.append(key)
        values.append(value)
    }

    /// Puts the entries in key order, keeping the last one added for a key added twice. Needed
    /// only after entries came out of order; a lookup before it would miss.
    package mutating func sort() {
        guard !inOrder else { return }
        let order = keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
        var sortedKeys: [Digest] = []
        var sortedValues: [Value] = []
        sortedKeys.reserveCapacity(keys.count)
        sortedValues.reserveCapacity(keys.count)
        for index in order {
            if sortedKeys.last == keys[index] {
                sortedValues[sortedValues.count - 1] = values[index]
            } else {
                sortedKeys.append(keys[index])
                sortedValues.append(values[index])
            }
        }
        (keys, values, inOrder) = (sortedKeys, sortedValues, true)
    }

    /// Where `key` is in `keys` and `values`.
    package func index(of key: Digest) -> Int? {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low < keys.count && keys[low] == key ? low : nil
    }

    package subscript(key: Digest) -> Value? {
        index(of: key).map { values[$0] }
    }
}
