/// One copy of each album path and tag list that photos repeat, shared by every photo that holds
/// them (the manifest's photos as they are read, the items' `ItemFacts`).
///
/// A site of 1,000,000 photos has a few hundred albums and tag lists; without this each photo held
/// its own copy of the array of its tags (an allocation of 64 bytes or more) and of every album
/// path or tag longer than 15 bytes (Swift keeps shorter strings inline).
package struct Interned: Sendable {
    package init() {}

    /// Album paths and tags.
    private var strings: Set<String> = []
    private var tagLists: Set<[String]> = []

    /// The album path, as first seen.
    package mutating func album(_ album: String?) -> String? {
        guard let album else { return nil }
        return strings.insert(album).memberAfterInsert
    }

    /// The tag list, as first seen (its tags among those already seen, so a tag shared by
    /// several lists is held once).
    package mutating func tags(_ tags: [String]) -> [String] {
        guard !tags.isEmpty else { return [] }
        if let known = tagLists.firstIndex(of: tags) { return tagLists[known] }
        let shared = tags.map { tag in strings.insert(tag).memberAfterInsert }
        tagLists.insert(shared)
        return shared
    }
}
