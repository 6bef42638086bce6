import Foundation
import GalleryConfig
import GalleryModel

/// Maps one Immich `AssetResponseDto` to a `Photo`: the original's URL, the file name as the title
/// of last resort, and `exifInfo`'s description, rating, camera and position, plus the asset's tags;
/// a Live Photo's clip (`livePhotoVideoId`) as its motion.
///
/// Every text is cleaned and capped as the other providers do; the position is kept like theirs and
/// published only when the site sets `images.showLocation`.
struct ImmichMapping {
    /// `{server}/api/`.
    let api: URL
    /// The album path the asset is published in.
    let album: String

    func photo(_ asset: JSONValue) throws -> Photo {
        guard let id = asset["id"]?.text, ImmichAlbums.isSafeID(id), PhotoID.isValid(id) else {
            throw MappingError(reason: ImmichMappingWords.noID)
        }
        let original = api.appendingPathComponent("assets/\(id)/original")
        switch asset["type"]?.text?.uppercased() {
        case "IMAGE", "VIDEO", nil: break
        case let other?:
            throw MappingError(id: id, reason: ImmichMappingWords.unsupported(other))
        }
        if case .bool(true)? = asset["isTrashed"] {
            throw MappingError(id: id, reason: ImmichMappingWords.trashed)
        }
        let exif = asset["exifInfo"]
        let clean = { (value: JSONValue?, max: Int) in value?.text.flatMap { UntrustedText.clean($0, max: max) } }
        var tags: [String] = []
        for tag in asset["tags"]?.array ?? [] {
            // `value` is the full path (`Places/Norway`) in newer servers, `name` the only text in older ones.
            guard let text = clean(tag["value"] ?? tag["name"], 100), !tags.contains(text) else { continue }
            tags.append(text)
        }
        var photo = Photo(
            id: id, description: clean(exif?["description"], 20_000),
            takenAt: [exif?["dateTimeOriginal"], asset["localDateTime"], asset["fileCreatedAt"]].lazy
                .compactMap { clean($0, 64) }.first,
            tags: Array(tags.prefix(100)), album: album, image: .remote(original),
            camera: CameraInfo(
                make: clean(exif?["make"], 100), model: clean(exif?["model"], 100),
                lens: clean(exif?["lensModel"], 200), focalLength: positive(exif?["focalLength"]),
                aperture: positive(exif?["fNumber"]),
                exposureTime: exif?["exposureTime"]?.text.flatMap(FiveHundredPxMapping.exposure),
                iso: positive(exif?["iso"]).map { Int($0) }),
            location: geoPoint(latitude: exif?["latitude"], longitude: exif?["longitude"]))
        if let rating = exif?["rating"]?.integer, (-1...5).contains(rating) { photo.rating = rating }
        // A Live Photo's clip is an asset of its own; its original is the still's motion, downloaded
        // and cached like the still (a clip that fails leaves the photo a still, with a warning).
        if let clip = asset["livePhotoVideoId"]?.text, ImmichAlbums.isSafeID(clip) {
            photo.motion = .remote(api.appendingPathComponent("assets/\(clip)/original"))
        }
        if let name = clean(asset["originalFileName"], 255) {
            photo.fallbackTitle = FolderProvider.title(fromFileName: (name as NSString).deletingPathExtension)
        }
        return photo
    }

    private func positive(_ value: JSONValue?) -> Double? {
        value?.number.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
    }
}

/// Why an Immich asset was skipped, in words, in one place.
enum ImmichMappingWords {
    static let noID = "asset without a usable id (expected a UUID)"
    static let trashed = "in Immich's trash; restore it to publish it"
    static func unsupported(_ type: String) -> String {
        "asset of type \(JSONValue.string(String(type.prefix(20))).quoted) is neither a photo nor a clip"
    }
}
