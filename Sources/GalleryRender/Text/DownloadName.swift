import Foundation

/// The file names visitors get for downloads (a photo page's `download` attribute, an album zip's
/// entries): the original's own name where it has one, made safe, with the downloaded file's extension.
///
/// Source names are as hostile as anything a manifest says: a name never carries a folder, `..`, a
/// control character or a character Windows refuses, never starts with a dot, and stays short.
package enum DownloadName {
    /// The longest stem kept, in characters (an extension and a `-N` suffix come on top).
    package static let maxStem = 80

    /// `IMG_2041.jpg` for an item whose original is `…/IMG_2041.HEIC` and whose download is a JPEG.
    package static func of(_ item: GalleryItem) -> String {
        let location = item.photo.image.description
        // The last segment of a URL's path (no host, query or fragment), or of a file's path.
        let last: String
        if location.contains("://") {
            let component = URL(string: location)?.lastPathComponent ?? ""
            last = component == "/" ? "" : component
        } else {
            last = location.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? ""
        }
        let sourceStem = last.contains(".") ? String(last[..<last.lastIndex(of: ".")!]) : last
        let stem = [sourceStem, item.photo.id].lazy.map(clean).first { !$0.isEmpty } ?? "photo"
        let path = item.downloadPath
        let ext =
            path.contains(".") ? clean(String(path[path.index(after: path.lastIndex(of: ".")!)...])).lowercased() : ""
        return ext.isEmpty ? stem : "\(stem).\(ext)"
    }

    /// `text` with every character outside letters, digits, space and `-_.()+,` made `_`, runs of
    /// `_` and spaces squeezed, no leading or trailing dots, spaces or `_`, and at most `maxStem` characters.
    package static func clean(_ text: String) -> String {
        var out = ""
        for character in text.precomposedStringWithCanonicalMapping {
            let keep = character.isLetter || character.isNumber || " -_.()+,".contains(character)
            let next: Character =
                keep
                    && !character.unicodeScalars.contains(where: {
                        $0.properties.generalCategory == .control
                            || $0.properties.generalCategory == .format
                    }) ? character : "_"
            if next == "_" && out.last == "_" { continue }
            out.append(next)
        }
        var trimmed = out.trimmingCharacters(in: CharacterSet(charactersIn: ". _"))
        if trimmed.count > maxStem {
            trimmed = String(trimmed.prefix(maxStem)).trimmingCharacters(in: CharacterSet(charactersIn: ". _"))
        }
        // "a..b" cannot name a parent folder once the name has no separator, but some unzip tools warn on it.
        while trimmed.contains("..") { trimmed = trimmed.replacingOccurrences(of: "..", with: ".") }
        return trimmed
    }

    /// The names made unique, case-insensitively (zips are unpacked on file systems that ignore
    /// case): the second `IMG_1.jpg` becomes `IMG_1-2.jpg`, and so on, in order.
    package static func unique(_ names: [String]) -> [String] {
        var used = Set<String>()
        var out: [String] = []
        out.reserveCapacity(names.count)
        // Names that occur once are kept as they are first, so a numbered name never takes another photo's own name.
        let counts = Dictionary(names.map { ($0.lowercased(), 1) }, uniquingKeysWith: +)
        for name in names where counts[name.lowercased()] == 1 { used.insert(name.lowercased()) }
        for name in names {
            if counts[name.lowercased()] == 1 {
                out.append(name)
                continue
            }
            let dot = name.lastIndex(of: ".")
            let stem = dot.map { String(name[..<$0]) } ?? name
            let ext = dot.map { String(name[$0...]) } ?? ""
            var candidate = name
            var number = 2
            while used.contains(candidate.lowercased()) {
                candidate = "\(stem)-\(number)\(ext)"
                number += 1
            }
            used.insert(candidate.lowercased())
            out.append(candidate)
        }
        return out
    }
}
