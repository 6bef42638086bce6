/// The closest of some known words to a misspelt one, for "did you mean …?" hints.
///
/// One edit distance for every such hint (config keys, front matter keys, commands and options), so
/// that they all agree on what counts as close.
public enum Spelling {
    /// The known word nearest to `word`, if it is near enough to be a likely typo: at most a third of
    /// its letters changed (at least one), ignoring case. Of equally near words the first is taken.
    public static func closest(to word: String, among known: some Sequence<String>) -> String? {
        let target = Array(word.lowercased())
        let allowed = max(1, target.count / 3)
        var best: (word: String, distance: Int)?
        for candidate in known {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance <= allowed, distance < (best?.distance ?? .max) { best = (candidate, distance) }
        }
        return best?.word
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of two
    /// neighbours (`titel` → `title`) each count one.
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
