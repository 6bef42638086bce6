import GalleryKeys
import GalleryModel

/// What one build learns of a blob cache's files beyond the state's records: the blobs it stored,
/// re-hashed or adopted (their new records), and whether it found files the state did not know.
///
/// A cold build of 100,000 photos learns this of 300,000 files. Two dictionaries keyed by digests
/// (records, and what was checked) took 71 MB for the images alone, most of it empty buckets; here
/// each file is one entry in an array, found through a dictionary of the key's first eight bytes
/// (12 bytes a bucket). Not thread-safe: `BlobCache` holds its lock around every use.
package struct FreshBlobs {
    package struct Entry {
        package var key: Digest
        /// The file's new record, for the state; nil when the state's record stands.
        package var stamp: BlobStamp?
        /// For a key the state does not know: nil until checked, then the intact file's identity or
        /// nil for a miss. (A known key's check is kept by `BlobCache` beside its record.)
        package var checked: FileIdentity??
        /// Whether `stamp` reached the state's pending records (`BlobCache.recorded`), so no later
        /// work needs to carry it.
        package var recorded = false

        package init(key: Digest, stamp: BlobStamp? = nil, checked: FileIdentity?? = nil) {
            self.key = key
            self.stamp = stamp
            self.checked = checked
        }
    }

    package private(set) var entries: [Entry] = []
    private var byWord: [UInt64: Int32] = [:]
    /// Keys whose first eight bytes another key has already; in practice never used.
    private var byKey: [Digest: Int32] = [:]

    package func index(of key: Digest) -> Int? {
        if let index = byWord[key.leadingWord], entries[Int(index)].key == key { return Int(index) }
        return byKey[key].map(Int.init)
    }

    package subscript(key: Digest) -> Entry? {
        index(of: key).map { entries[$0] }
    }

    /// Changes the entry for `key`, adding it first if there is none.
    package mutating func update(_ key: Digest, _ change: (inout Entry) -> Void) {
        if let index = index(of: key) {
            change(&entries[index])
            return
        }
        var entry = Entry(key: key)
        change(&entry)
        let index = Int32(entries.count)
        entries.append(entry)
        if byWord[key.leadingWord] == nil { byWord[key.leadingWord] = index } else { byKey[key] = index }
    }
}
