import Foundation

/// Which Google Takeout JSON sidecar belongs to which photo of a folder, by their names alone.
///
/// Takeout names a photo's sidecar after the photo in several ways, all of which occur in real
/// exports (the rules as reverse-engineered by the tools that read them; Google documents none):
/// - `IMG.jpg.json` (exports before late 2024) and `IMG.jpg.supplemental-metadata.json` (since);
/// - the name without `.json` is cut at 46 characters, so the whole name is at most 51:
///   `Urlaub in Knaufspesch in der Schneifel (38).JP.json`,
///   `D7157814-D2D5-4A62-AFCE-9CF465CB7D66.jpeg.supp.json`, `…_com.snapchat.androi.json`
///   (GooglePhotosTakeoutHelper issues 8 and 353 and pull request 449; pulsejet/memories issue 1559;
///   ente pull request 4956). Newer exports are reported to cut later (ente issue 11594), so any
///   cut at 46 characters or more is accepted;
/// - a second photo of the same name is `IMG(1).jpg`, and its sidecar carries the number after
///   the cut: `IMG.jpg(1).json`, `IMG.jpg.supplemental-metadata(1).json` (ente pull request 4956);
/// - an edited copy, `IMG-edited.jpg` (or `-bearbeitet`, `-modifié`… in other languages), has no
///   sidecar of its own and is described by its original's (GooglePhotosTakeoutHelper's
///   `lib/extras.dart` lists these suffixes).
///
/// Names are compared without case. A cut name shared by several photos is given to none of them,
/// rather than to the wrong one.
package enum TakeoutNames {
    /// The name without `.json` is cut at this many characters (`MAX_FILE_NAME_LENGTH_GOOGLE_EXPORT`).
    static let cutAt = 46
    /// What Takeout adds after the photo's name, before any cut.
    package static let supplemental = ".supplemental-metadata"
    /// The suffixes Takeout gives an edited copy, by the language of the account.
    static let editedSuffixes = [
        "-edited", "-bearbeitet", "-modifié", "-modificato", "-editado", "-ha editado", "-editat", "-bewerkt",
        "-edytowane", "-redigeret", "-redigert", "-redigerad", "-muokattu", "-編集済み", "-편집됨", "-已编辑", "-已編輯",
        "-编辑"
    ]

    /// One sidecar name taken apart: `IMG.jpg.supplemen(1).json` is stem `img.jpg.supplemen`, number 1.
    struct SidecarName: Hashable {
        var stem: String
        var number: Int?

        init(stem: String, number: Int?) {
            self.stem = stem
            self.number = number
        }

        init?(_ name: String) {
            let lower = name.lowercased()
            guard lower.hasSuffix(".json"), lower.count > 5 else { return nil }
            let (stem, number) = TakeoutNames.splitNumber(String(lower.dropLast(5)))
            guard !stem.isEmpty else { return nil }
            self.init(stem: stem, number: number)
        }
    }

    /// The sidecar of each photo that has one: photo file name → sidecar file name. Both lists hold
    /// file names of one folder; sidecars that are no photo's stay out of the answer.
    ///
    /// Each photo's possible sidecar names are looked up, so a folder of 10,000 photos and as many
    /// sidecars costs some 10,000 × 70 lookups rather than 10,000 × 10,000 comparisons.
    package static func match(photos: [String], sidecars: [String]) -> [String: String] {
        var byName: [SidecarName: String] = [:]
        for name in sidecars {
            guard let parsed = SidecarName(name), byName[parsed] == nil else { continue }
            byName[parsed] = name
        }
        var found: [String: String] = [:]
        var claimed: [String: [String]] = [:]  // a cut name, by the photos it fits
        var edited: [String] = []
        for photo in photos {
            let readings = self.readings(of: photo.lowercased())
            if let exact = readings.lazy.compactMap({ whole($0, in: byName) }).first {
                found[photo] = exact
            } else if let cut = readings.lazy.compactMap({ self.cut($0, in: byName) }).first {
                claimed[cut, default: []].append(photo)
            } else {
                edited.append(photo)
            }
        }
        for (sidecar, photos) in claimed where photos.count == 1 { found[photos[0]] = sidecar }
        // An edited copy takes its original's sidecar, which the original keeps too.
        for photo in edited {
            guard let original = original(ofEdited: photo.lowercased()) else { continue }
            found[photo] = readings(of: original).lazy.compactMap { whole($0, in: byName) }.first
        }
        return found
    }

    /// The sidecar named for `reading` whole: `IMG.jpg`, or `IMG.jpg` and any part of
    /// `.supplemental-metadata` (the shortest first, so `IMG.jpg.json` before the longer names).
    private static func whole(_ reading: (name: String, number: Int?), in byName: [SidecarName: String]) -> String? {
        var stem = reading.name
        if let hit = byName[SidecarName(stem: stem, number: reading.number)] { return hit }
        for character in supplemental {
            stem.append(character)
            if let hit = byName[SidecarName(stem: stem, number: reading.number)] { return hit }
        }
        return nil
    }

    /// The sidecar named for `reading` cut short inside the photo's own name, at `cutAt` characters
    /// or more (the longest first).
    private static func cut(_ reading: (name: String, number: Int?), in byName: [SidecarName: String]) -> String? {
        var stem = reading.name
        while !stem.isEmpty {
            stem.removeLast()
            guard stem.utf8.count >= cutAt else { return nil }
            if let hit = byName[SidecarName(stem: stem, number: reading.number)] { return hit }
        }
        return nil
    }

    /// The ways to read a photo's name: as it is (`Day (38).jpg` is named so), and, when its name
    /// ends in `(N)` before the extension, as Takeout's second copy of `Day.jpg`.
    private static func readings(of name: String) -> [(name: String, number: Int?)] {
        let ext = (name as NSString).pathExtension
        let base = (name as NSString).deletingPathExtension
        let (unnumbered, number) = splitNumber(base)
        var readings: [(name: String, number: Int?)] = [(name, nil)]
        if let number, !unnumbered.isEmpty {
            readings.insert((ext.isEmpty ? unnumbered : "\(unnumbered).\(ext)", number), at: 0)
        }
        return readings
    }

    /// `img-edited.jpg` → `img.jpg`; nil for a name without an edited suffix.
    private static func original(ofEdited name: String) -> String? {
        let ext = (name as NSString).pathExtension
        let base = splitNumber((name as NSString).deletingPathExtension).stem
        guard let suffix = editedSuffixes.first(where: { base.hasSuffix($0) }), base.count > suffix.count else {
            return nil
        }
        let original = String(base.dropLast(suffix.count))
        return ext.isEmpty ? original : "\(original).\(ext)"
    }

    /// `img(12)` → (`img`, 12); a name without such an ending comes back whole.
    static func splitNumber(_ text: String) -> (stem: String, number: Int?) {
        guard text.hasSuffix(")"), let open = text.lastIndex(of: "(") else { return (text, nil) }
        let digits = text[text.index(after: open)..<text.index(before: text.endIndex)]
        guard (1...4).contains(digits.count), digits.allSatisfy(\.isASCII), let number = Int(digits) else {
            return (text, nil)
        }
        return (String(text[..<open]), number)
    }
}
