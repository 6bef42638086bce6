import Foundation
import GalleryModel

/// A named group of photos with its own paged pages: a tag (albums are an `AlbumTree`).
package struct PhotoCollection: Sendable, Equatable {
    /// The album or tag as written in the manifest.
    package var name: String
    /// One path component, unique among collections of the same kind.
    package var slug: String
    /// Indices into the site's item list, in gallery order.
    package var members: [Int]

    /// Root-relative path of the collection's 1-based page, under `folder` (`tags`).
    package func path(in folder: String, page: Int) -> String {
        SiteLayout.listing("\(folder)/\(slug)", page: page)
    }

    /// Tags sorted by name.
    /// - Parameter including: Whether an item (by index) counts; the tags of those left out are not seen.
    package static func tags(of items: [ItemFacts], including: (Int) -> Bool = { _ in true }) -> [PhotoCollection] {
        withoutActuallyEscaping(including) { including in
            group(items.indices.lazy.map { including($0) ? items[$0].tags : [] }, sortedByName: true)
        }
    }

    /// Groups item indices by name, then gives each group a unique slug, deterministically.
    private static func group(_ namesPerItem: some Sequence<[String]>, sortedByName: Bool) -> [PhotoCollection] {
        var order: [String] = []
        var members: [String: [Int]] = [:]
        for (index, names) in namesPerItem.enumerated() {
            for name in names {
                let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
                guard !trimmed.isEmpty else { continue }
                if members[trimmed] == nil { order.append(trimmed) }
                if members[trimmed]?.last != index { members[trimmed, default: []].append(index) }
            }
        }
        if sortedByName {
            order.sort { ($0.lowercased(), $0) < ($1.lowercased(), $1) }
        }
        var used: Set<String> = []
        return order.map { name in
            let base = slug(name)
            var candidate = base
            var counter = 2
            while used.contains(candidate) {
                candidate = "\(base)-\(counter)"
                counter += 1
            }
            used.insert(candidate)
            return PhotoCollection(name: name, slug: candidate, members: members[name] ?? [])
        }
    }

    /// An ASCII slug of the name, transliterated (`PhotoID.ascii`: `hélicoïde` → `helicoide`, `海` →
    /// `hai`); a name with no letters or digits in any script (`🌊`) gets a short hash.
    package static func slug(_ name: String) -> String {
        let ascii = PhotoID.slug(name)
        let hasLetters = PhotoID.ascii(name).unicodeScalars.contains {
            $0.isASCII && CharacterSet.alphanumerics.contains($0)
        }
        if hasLetters { return ascii }
        return "t-" + Digest.sha256(Data(name.utf8)).prefix(8)
    }
}
