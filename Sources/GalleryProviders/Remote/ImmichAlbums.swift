import Foundation
import GalleryConfig
import GalleryModel

/// Choosing Immich albums from `source.albums` and reading what the site shows about each.
package enum ImmichAlbums {
    package struct Summary: Equatable {
        package var id: String
        package var name: String
    }

    /// The albums `wanted` names, in that order, from `GET /api/albums`; every listed album when
    /// `wanted` is empty. An entry matches an album's id first, then its exact name, then its name
    /// ignoring case.
    /// - Throws: `ProviderError.refused` for an entry that matches no album or several.
    package static func pick(_ wanted: [String], from listed: [JSONValue]) throws -> [Summary] {
        let all = listed.compactMap { album -> Summary? in
            guard let id = album["id"]?.text, isSafeID(id) else { return nil }
            return Summary(id: id, name: album["albumName"]?.text ?? id)
        }
        if wanted.isEmpty { return all }
        var picked: [Summary] = []
        for entry in wanted {
            var matches = all.filter { $0.id == entry }
            if matches.isEmpty { matches = all.filter { $0.name == entry } }
            if matches.isEmpty { matches = all.filter { $0.name.lowercased() == entry.lowercased() } }
            guard matches.count == 1, let match = matches.first else {
                throw ProviderError(.refused, ImmichWords.albumProblem(entry, matches: matches.count, all))
            }
            if !picked.contains(match) { picked.append(match) }
        }
        return picked
    }

    /// An album's name as a one-level album path: cleaned, `/` replaced (Immich names are flat), and
    /// made unique among the site's albums with ` (2)`, ` (3)`.
    package static func uniqueName(_ raw: String, taken: inout Set<String>) -> String {
        let flat = raw.replacingOccurrences(of: "/", with: "∕").replacingOccurrences(of: "\n", with: " ")
        let base = UntrustedText.clean(flat, max: 200).flatMap { AlbumPath.normalized($0) } ?? "Untitled album"
        var name = base
        var counter = 2
        while !taken.insert(name).inserted {
            name = "\(base) (\(counter))"
            counter += 1
        }
        return name
    }

    /// The album's description and its order: Immich sorts an album by date, `asc` or `desc`.
    static func info(_ album: JSONValue) -> AlbumInfo {
        let description = album["description"]?.text.flatMap { UntrustedText.clean($0, max: 20_000) }
        let sort: PhotoSort? =
            switch album["order"]?.text?.lowercased() {
            case "asc": PhotoSort(key: .taken, descending: false)
            case "desc": PhotoSort(key: .taken, descending: true)
            default: nil
            }
        return AlbumInfo(description: description, sort: sort)
    }

    /// Whether `id` can go into a request path as it is: Immich ids are UUIDs; anything else (a
    /// `..`, a `/`, a `?`) is dropped rather than sent.
    static func isSafeID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
                    || byte == 0x2d
            }
    }
}

/// The words of the Immich provider's messages, in one place.
enum ImmichWords {
    static func albumProblem(_ entry: String, matches: Int, _ all: [ImmichAlbums.Summary]) -> String {
        let quoted = JSONValue.string(entry).quoted
        if matches > 1 {
            return "immich: \(matches) albums are named \(quoted); put the album's id in source.albums instead"
        }
        let names = all.prefix(20).map { JSONValue.string($0.name).quoted }.joined(separator: ", ")
        let known = all.isEmpty ? "the key sees no albums" : "albums the key sees: \(names)"
        return "immich: no album has the id or name \(quoted) (\(known)); check source.albums"
    }
}
