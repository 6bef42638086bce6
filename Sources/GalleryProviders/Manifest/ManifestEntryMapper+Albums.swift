import Foundation
import GalleryConfig
import GalleryModel

/// The manifest's optional top-level `albums` object: settings by album path, as hostile as the
/// photos. A bad value is reported as a `ManifestIssue` and left out; the rest of its album is kept.
extension ManifestEntryMapper {
    /// Albums with settings at most; a manifest with more is cut there (and says so).
    package static let maxAlbums = 10_000

    /// `{"2024/Iceland": {"title": …, "description": …, "cover": "photo-id", "sort": "-taken",
    /// "showInHome": false, "download": "album"}}` to settings keyed by the cleaned path (`AlbumPath.normalized`).
    package static func albums(_ value: JSONValue) -> (albums: [String: AlbumInfo], issues: [ManifestIssue]) {
        guard case .object(let object) = value else {
            return (
                [:],
                [
                    ManifestIssue(
                        item: "albums", location: nil,
                        reason: "expected an object of album settings keyed by album path, "
                            + "got \(value.kind); album settings were ignored")
                ]
            )
        }
        var albums: [String: AlbumInfo] = [:]
        var issues: [ManifestIssue] = []
        // Object keys arrive unordered; sorting them makes "first kept" mean the same every build.
        for (offset, key) in object.keys.sorted().enumerated() {
            let item = "albums[\(JSONValue.string(String(key.prefix(80))).quoted)]"
            guard offset < maxAlbums else {
                issues.append(
                    ManifestIssue(
                        item: "albums", location: nil,
                        reason: "more than \(maxAlbums) albums; the rest were ignored"))
                break
            }
            guard let path = AlbumPath.normalized(key) else {
                issues.append(
                    ManifestIssue(item: item, location: nil, reason: "not an album path such as \"2024/Iceland\""))
                continue
            }
            guard albums[path] == nil else {
                issues.append(
                    ManifestIssue(
                        item: item, location: nil,
                        reason: "the same album as another key (\(path)); the first is kept"))
                continue
            }
            guard case .object(let fields)? = object[key] else {
                issues.append(ManifestIssue(item: item, location: nil, reason: "expected an object of album settings"))
                continue
            }
            var problems: [String] = []
            albums[path] = albumInfo(fields, problems: &problems)
            issues += problems.map { ManifestIssue(item: item, location: nil, reason: $0) }
        }
        return (albums, issues)
    }

    /// One album's settings; each field that is there but unusable adds a problem and is left out.
    package static func albumInfo(_ fields: [String: JSONValue], problems: inout [String]) -> AlbumInfo {
        var info = AlbumInfo()
        func string(_ name: String, max: Int) -> String? {
            guard let value = fields[name] else { return nil }
            guard case .string(let text) = value else {
                problems.append("\"\(name)\" should be a string, got \(value.kind); ignored")
                return nil
            }
            return UntrustedText.clean(text, max: max)
        }
        info.title = string("title", max: AlbumPath.maxNameLength)
        info.description = string("description", max: 20_000)
        if let cover = string("cover", max: 200) {
            if PhotoID.isValid(cover) {
                info.cover = cover
            } else {
                problems.append(
                    "\"cover\" \(JSONValue.string(String(cover.prefix(60))).quoted) is not a photo id; ignored")
            }
        }
        if let sort = string("sort", max: 40) {
            info.sort = PhotoSort(sort)
            if info.sort == nil {
                problems.append(
                    "\"sort\" \(JSONValue.string(sort).quoted) is not taken, name, source or rating "
                        + "(with - for descending); ignored")
            }
        }
        func flag(_ name: String) -> Bool? {
            switch fields[name] {
            case .bool(let flag)?: return flag
            case nil: return nil
            case let other?:
                problems.append("\"\(name)\" should be true or false, got \(other.kind); ignored")
                return nil
            }
        }
        info.showInHome = flag("showInHome")
        info.unlisted = flag("unlisted")
        if case .string(let password)? = fields["password"] {
            info.password = password
        } else if let other = fields["password"] {
            problems.append(
                "\"password\" should be a string, got \(other.kind); the album is left out until it is fixed")
            info.passwordEnv = ""
        }
        if let name = string("passwordEnv", max: 200) {
            if EnvironmentName.isValid(name) {
                info.passwordEnv = name
            } else {
                problems.append(
                    "\"passwordEnv\" \(JSONValue.string(String(name.prefix(60))).quoted) is not an environment "
                        + "variable name; the album is left out until it is fixed")
                info.passwordEnv = ""
            }
        }
        if let text = string("download", max: 40) {
            info.download = DownloadSetting(rawValue: text)
            if info.download == nil {
                problems.append(
                    "\"download\" \(JSONValue.string(text).quoted) is not \(DownloadSetting.choices); ignored")
            }
        }
        let known = [
            "title", "description", "cover", "sort", "showInHome", "unlisted", "password", "passwordEnv", "download"
        ]
        for name in fields.keys.sorted() where !known.contains(name) {
            let hint =
                Spelling.closest(to: name, among: known).map { "did you mean \"\($0)\"?" }
                ?? "expected \(known.joined(separator: ", "))"
            problems.append(
                "unknown album setting \(JSONValue.string(String(name.prefix(60))).quoted) (\(hint)); ignored")
        }
        return info
    }
}
