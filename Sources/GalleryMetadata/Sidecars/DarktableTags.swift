/// The tags darktable keeps its own bookkeeping in, which its users never see as tags of theirs:
/// `darktable|format|arw`, `darktable|changed`, `darktable|exported`… (darktable's `src/common/image.c`
/// attaches `darktable|format|<ext>` to every file it imports). It writes them into a sidecar's, and an
/// export's, `lr:hierarchicalSubject`, and their words one by one (`darktable`, `format`, `arw`) into
/// `dc:subject`, so read as they are they would tag every photo "darktable" and "arw".
package enum DarktableTags {
    /// Whether a `lr:hierarchicalSubject` (or `dc:subject`) entry is darktable's own: `darktable|…`.
    static func isBookkeeping(_ tag: String) -> Bool {
        tag.split(separator: "|").first?.trimmingCharacters(in: .whitespaces).lowercased() == "darktable"
            && tag.contains("|")
    }

    /// `subject` without darktable's entries: those written whole (`darktable|format|orf`) and the
    /// words of its hierarchical ones that no tag of the photographer's own (another hierarchical
    /// entry, which darktable writes for every tag, flat ones too) also uses.
    package static func withoutBookkeeping(_ subject: [String], hierarchical: [String]) -> [String] {
        let bookkeeping = hierarchical.filter(isBookkeeping)
        var kept = subject.filter { !isBookkeeping($0) }
        guard !bookkeeping.isEmpty else { return kept }
        let words = { (tags: [String]) in Set(tags.flatMap { $0.split(separator: "|").map(String.init) }) }
        let theirs = words(bookkeeping).subtracting(words(hierarchical.filter { !isBookkeeping($0) }))
        kept.removeAll { theirs.contains($0) }
        return kept
    }
}
