import Foundation
import GalleryKeys
import GalleryModel

/// How `ItemList` writes a `GalleryItem` to its file and reads it back: the fields in a fixed order,
/// text as length-prefixed UTF-8, numbers as their bits. JSON took about 0.3 ms an item each way,
/// which a 100,000-photo build paid about ten times over (a page per photo, its neighbours' links,
/// grids, tags, search); this takes a few microseconds. The bytes never leave the build that wrote
/// them, so the layout has no version: change it freely.
package enum ItemCoding {
    package static func encode(_ item: GalleryItem) -> [UInt8] {
        var out = Writer()
        write(item.photo, to: &out)
        writeRest(of: item, to: &out)
        return out.bytes
    }

    package static func encode(_ photo: Photo) -> [UInt8] {
        var out = Writer()
        write(photo, to: &out)
        return out.bytes
    }

    package static func decode(_ bytes: UnsafeRawBufferPointer) throws -> GalleryItem {
        var input = Reader(bytes: bytes)
        return try readItem(photo: try readPhoto(&input), &input)
    }

    package static func decodePhoto(_ bytes: UnsafeRawBufferPointer) throws -> Photo {
        var input = Reader(bytes: bytes)
        return try readPhoto(&input)
    }

    private static func write(_ photo: Photo, to out: inout Writer) {
        out.text(photo.id)
        out.text(photo.title)
        out.text(photo.description)
        out.text(photo.author)
        out.text(photo.authorURL?.absoluteString)
        out.text(photo.takenAt)
        out.int(photo.tags.count)
        for tag in photo.tags { out.text(tag) }
        out.text(photo.album)
        out.text(photo.license?.name)
        out.text(photo.license?.url?.absoluteString)
        out.int(photo.image.remoteURL == nil ? 0 : 1)
        out.text(photo.image.description)
        let camera = photo.camera
        for text in [camera.make, camera.model, camera.lens] { out.text(text) }
        for number in [
            camera.focalLength, camera.aperture, camera.exposureTime, photo.location?.latitude,
            photo.location?.longitude
        ] {
            out.number(number)
        }
        out.int(camera.iso.map { $0 + 1 } ?? 0)
        out.text(photo.sourcePage?.absoluteString)
        out.int(photo.rating.map { $0 + 2 } ?? 0)
        out.text(photo.fallbackTitle)
        out.text(photo.fallbackTakenAt)
        out.int(photo.motion == nil ? 0 : photo.motion?.remoteURL == nil ? 1 : 2)
        if let motion = photo.motion { out.text(motion.description) }
        out.int(photo.order == nil ? 0 : 1)
        if let order = photo.order { out.int(order) }
    }

    private static func writeRest(of item: GalleryItem, to out: inout Writer) {
        out.size(item.displaySize)
        let plan = item.plan
        out.text(plan.thumbnail.folder)
        out.size(plan.thumbnail.size)
        out.size(plan.preview.size)
        out.int(plan.all.count)
        for derivative in plan.all { out.size(derivative.size) }
        out.int(plan.gridSteps.count)
        for derivative in plan.gridSteps { out.size(derivative.size) }
        out.int((plan.webp ? 1 : 0) | (plan.avif ? 2 : 0))
        out.text(item.averageColor)
        item.placeholderKey.withHexBytes { out.bytes.append(contentsOf: $0) }
        switch item.original {
        case .none: out.int(0)
        case .published(let path):
            out.int(1)
            out.text(path)
        case .remote(let address):
            out.int(2)
            out.text(address)
        }
        // A clip's facts as JSON: few items are clips, and this keeps the layout in one place.
        out.text(item.video.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) })
        // 0: none; 1: a Live Photo's or motion photo's clip; 2: an animation's clip; 3: an animation kept as it is.
        switch (item.hasMotion, item.animation) {
        case (false, _): out.int(0)
        case (true, nil): out.int(1)
        case (true, .clip): out.int(2)
        case (true, .kept(let fileExtension)):
            out.int(3)
            out.text(fileExtension)
        }
        out.text(item.downloadKey?.hex)
        out.int(item.originalDownloadable ? 1 : 0)
    }

    private static func readPhoto(_ input: inout Reader) throws -> Photo {
        var photo = Photo(id: try input.text(), image: .file(URL(fileURLWithPath: "/")))
        photo.title = try input.optionalText()
        photo.description = try input.optionalText()
        photo.author = try input.optionalText()
        photo.authorURL = try input.optionalText().flatMap(URL.init(string:))
        photo.takenAt = try input.optionalText()
        photo.tags = try (0..<input.int()).map { _ in try input.text() }
        photo.album = try input.optionalText()
        if let name = try input.optionalText() {
            photo.license = License(name: name, url: try input.optionalText().flatMap(URL.init(string:)))
        } else {
            _ = try input.optionalText()
        }
        let remote = try input.int() == 1
        photo.image = ImageLocation(remote: remote, description: try input.text())
        photo.camera = CameraInfo(
            make: try input.optionalText(), model: try input.optionalText(), lens: try input.optionalText(),
            focalLength: try input.number(), aperture: try input.number(), exposureTime: try input.number())
        let latitude = try input.number()
        let longitude = try input.number()
        if let latitude, let longitude { photo.location = GeoPoint(latitude: latitude, longitude: longitude) }
        let iso = try input.int()
        photo.camera.iso = iso == 0 ? nil : iso - 1
        photo.sourcePage = try input.optionalText().flatMap(URL.init(string:))
        let rating = try input.int()
        photo.rating = rating == 0 ? nil : rating - 2
        photo.fallbackTitle = try input.optionalText()
        photo.fallbackTakenAt = try input.optionalText()
        let motion = try input.int()
        if motion != 0 { photo.motion = ImageLocation(remote: motion == 2, description: try input.text()) }
        if try input.int() != 0 { photo.order = try input.int() }
        return photo
    }

    private static func readItem(photo: Photo, _ input: inout Reader) throws -> GalleryItem {
        let display = try input.size()
        let folder = try input.text()
        let thumbnail = Derivative(size: try input.size(), folder: folder)
        let preview = Derivative(size: try input.size(), folder: folder)
        let all = try (0..<input.int()).map { _ in Derivative(size: try input.size(), folder: folder) }
        let steps = try (0..<input.int()).map { _ in Derivative(size: try input.size(), folder: folder) }
        let twins = try input.int()
        let plan = DerivativePlan(
            thumbnail: thumbnail, preview: preview, all: all, gridSteps: steps, webp: twins & 1 != 0,
            avif: twins & 2 != 0)
        let color = try input.text()
        guard let key = Digest(hexBuffer: try input.raw(64)) else {
            throw SpillFileError(.damaged, "item file: bad placeholder key")
        }
        let original: OriginalLink
        switch try input.int() {
        case 1: original = .published(try input.text())
        case 2: original = .remote(try input.text())
        default: original = .none
        }
        let video = try input.optionalText().flatMap { try? JSONDecoder().decode(VideoInfo.self, from: Data($0.utf8)) }
        var item = GalleryItem(
            photo: photo, displaySize: display, plan: plan, averageColor: color, placeholderKey: key,
            original: original, video: video)
        switch try input.int() {
        case 1: item.hasMotion = true
        case 2: (item.hasMotion, item.animation) = (true, .clip)
        case 3: (item.hasMotion, item.animation) = (true, .kept(fileExtension: try input.text()))
        default: break
        }
        item.downloadKey = try input.optionalText().flatMap { Digest(hex: $0) }
        item.originalDownloadable = try input.int() == 1
        return item
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func int(_ value: Int) {
            withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func text(_ value: String?) {
            guard let value else { return int(-1) }
            int(value.utf8.count)
            bytes.append(contentsOf: value.utf8)
        }

        mutating func number(_ value: Double?) {
            int(value == nil ? 0 : 1)
            withUnsafeBytes(of: (value ?? 0).bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func size(_ size: PixelSize) {
            int(size.width)
            int(size.height)
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var at = 0

        mutating func raw(_ count: Int) throws -> UnsafeRawBufferPointer {
            guard count >= 0, at + count <= bytes.count else {
                throw SpillFileError(.damaged, "item file: record too short")
            }
            defer { at += count }
            return UnsafeRawBufferPointer(rebasing: bytes[at..<at + count])
        }

        mutating func int() throws -> Int {
            Int(Int64(littleEndian: try raw(8).loadUnaligned(as: Int64.self)))
        }

        mutating func optionalText() throws -> String? {
            let count = try int()
            return count < 0 ? nil : String(decoding: try raw(count), as: UTF8.self)
        }

        mutating func text() throws -> String {
            guard let text = try optionalText() else { throw SpillFileError(.damaged, "item file: missing text") }
            return text
        }

        mutating func number() throws -> Double? {
            let present = try int() == 1
            let value = Double(bitPattern: UInt64(littleEndian: try raw(8).loadUnaligned(as: UInt64.self)))
            return present ? value : nil
        }

        mutating func size() throws -> PixelSize {
            PixelSize(width: try int(), height: try int())
        }
    }
}
