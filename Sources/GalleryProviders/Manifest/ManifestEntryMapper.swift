import Foundation
import GalleryConfig
import GalleryModel

/// Maps untrusted manifest entries to `Photo`s, one entry at a time.
package struct ManifestEntryMapper {
    /// How an entry's `image` value is turned into a location.
    package enum ImageResolver {
        /// Local manifest: relative paths resolve inside this folder and may not leave it.
        case folder(URL)
        /// Remote manifest: relative references resolve against this URL and stay remote.
        case base(URL)
    }

    package let resolver: ImageResolver

    /// Maps entries one by one as they are read: bad ones become issues, duplicates keep the first.
    package struct Collector {
        package let mapper: ManifestEntryMapper
        package private(set) var manifest = Manifest(photos: [])
        private var seen: Set<String> = []
        private var index = 0
        private var interned = Interned()

        package init(mapper: ManifestEntryMapper) {
            self.mapper = mapper
        }

        /// Entries added so far, kept or not.
        package var count: Int { index }

        /// Makes room for this many photos in all, at most a million more than there are (an
        /// estimate, `ManifestDocument.readEntries`): more are still taken, fewer leave room unused.
        package mutating func expect(_ photos: Int) {
            manifest.photos.reserveCapacity(min(photos, manifest.photos.count + 1 << 20))
        }

        package mutating func add(_ entry: JSONValue) {
            defer { index += 1 }
            do {
                var photo = try mapper.map(entry)
                photo.tags = interned.tags(photo.tags)
                photo.album = interned.album(photo.album)
                guard seen.insert(photo.id).inserted else {
                    throw EntryError(
                        item: photo.id, location: photo.image.description,
                        reason: "duplicate id; the first entry with this id is kept")
                }
                manifest.photos.append(photo)
            } catch let error as EntryError {
                manifest.issues.append(
                    ManifestIssue(
                        item: error.item ?? "photos[\(index)]", location: error.location,
                        reason: error.reason))
            } catch {
                manifest.issues.append(ManifestIssue(item: "photos[\(index)]", location: nil, reason: "\(error)"))
            }
        }
    }

    private struct EntryError: Error {
        var item: String?
        var location: String?
        var reason: String
    }

    private func map(_ entry: JSONValue) throws -> Photo {
        guard case .object(let fields) = entry else {
            throw EntryError(reason: "expected an object, got \(entry.kind)")
        }
        let id: String
        switch fields["id"] {
        case .string(let text)?: id = text
        case .number(let number)? where number.rounded() == number && number >= 0 && number < 1e15:
            id = String(Int64(number))
        default:
            throw EntryError(reason: "\"id\" is missing or not a string")
        }
        guard PhotoID.isValid(id) else {
            throw EntryError(
                reason: "id \(JSONValue.string(String(id.prefix(60))).quoted) may only hold letters, "
                    + "digits, '-', '_' and '.', and may not start with '.'")
        }
        guard case .string(let imageText)? = fields["image"], !imageText.isEmpty else {
            throw EntryError(item: id, reason: "\"image\" is missing; give a path or an https URL")
        }
        let image = try resolveImage(imageText, id: id)

        var author = text(fields["author"], max: 200)
        var authorURL = link(fields["authorUrl"])
        if case .object(let object)? = fields["author"] {
            author = text(object["name"], max: 200)
            authorURL = link(object["url"])
        }
        var license: License?
        switch fields["license"] {
        case .string(let name)?: license = UntrustedText.clean(name, max: 200).map { License(name: $0) }
        case .object(let object)?:
            license = text(object["name"], max: 200).map { License(name: $0, url: link(object["url"])) }
        default: license = nil
        }
        var tags: [String] = []
        switch fields["tags"] {
        case .array(let items)?: tags = items.compactMap { text($0, max: 100) }
        case .string(let list)?:
            tags = list.split(separator: ",").compactMap { UntrustedText.clean(String($0), max: 100) }
        default: break
        }
        var unique: [String] = []
        for tag in tags.prefix(100) where !unique.contains(tag) { unique.append(tag) }

        var camera = CameraInfo()
        if case .object(let object)? = fields["camera"] {
            camera = CameraInfo(
                make: text(object["make"], max: 100), model: text(object["model"], max: 100),
                lens: text(object["lens"], max: 200), focalLength: number(object["focalLength"]),
                aperture: number(object["aperture"]), exposureTime: number(object["exposureTime"]),
                iso: number(object["iso"]).map { Int($0) })
        }
        var photo = Photo(
            id: id, title: text(fields["title"], max: 300), description: text(fields["description"], max: 20_000),
            author: author, authorURL: authorURL, takenAt: text(fields["takenAt"], max: 40), tags: unique,
            album: text(fields["album"], max: 200), license: license, image: image, camera: camera)
        // Stars as Lightroom writes them: -1 (rejected) to 5; anything else is left out.
        photo.rating = number(fields["rating"]).flatMap { $0.rounded() == $0 && (-1...5).contains($0) ? Int($0) : nil }
        return photo
    }

    private func resolveImage(_ value: String, id: String) throws -> ImageLocation {
        let lowered = value.lowercased()
        let isURL = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        if !isURL, let colon = value.firstIndex(of: ":"), !value[..<colon].contains("/") {
            throw EntryError(
                item: id, location: value, reason: "only relative paths and http(s) URLs are allowed in \"image\"")
        }
        switch resolver {
        case .base(let base):
            guard let url = URL(string: value, relativeTo: base)?.absoluteURL else {
                throw EntryError(item: id, location: value, reason: "\"image\" is not a valid URL")
            }
            return .remote(url)
        case .folder(let folder):
            if isURL {
                guard let url = URL(string: value), url.host != nil else {
                    throw EntryError(item: id, location: value, reason: "\"image\" is not a valid URL")
                }
                return .remote(url)
            }
            let resolved = folder.appendingPathComponent(value).standardizedFileURL
            guard !value.hasPrefix("/"), resolved.path.hasPrefix(folder.path + "/") else {
                throw EntryError(
                    item: id, location: value,
                    reason: "image path leaves the manifest's folder; keep photos beside or below the manifest")
            }
            return .file(resolved)
        }
    }

    private func text(_ value: JSONValue?, max: Int) -> String? {
        switch value {
        case .string(let string)?: return UntrustedText.clean(string, max: max)
        case .number(let number)?: return JSONValue.number(number).quoted
        default: return nil
        }
    }

    private func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .number(let number)?: return number.isFinite ? number : nil
        case .string(let string)?:
            return Double(string.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        default: return nil
        }
    }

    private func link(_ value: JSONValue?) -> URL? {
        guard case .string(let string)? = value, let url = URL(string: string.trimmingCharacters(in: .whitespaces)),
            let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil
        else { return nil }
        return url
    }

    package init(resolver: ImageResolver) {
        self.resolver = resolver
    }
}
