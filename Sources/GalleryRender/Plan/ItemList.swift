import Foundation
import GalleryKeys
import GalleryModel

/// What the page plan needs of a published photo to order the site and find its albums, tags and
/// map points, without reading the whole item back: ids, album paths, tag names and sort fields.
package struct ItemFacts: Sendable {
    package var id: String
    package var album: String?
    package var tags: [String]
    package var title: String?
    package var fallbackTitle: String?
    package var takenAt: String?
    package var rating: Int?
    /// Its place in its album by hand (`Photo.order`).
    package var order: Int?
    package var hasLocation: Bool

    /// The photo's page, as `GalleryItem.pagePath`.
    var pagePath: String { SiteLayout.photoPage(id: id) }

    package init(_ photo: Photo) {
        id = photo.id
        album = photo.album
        tags = photo.tags
        title = photo.title
        fallbackTitle = photo.fallbackTitle
        takenAt = photo.takenAt
        rating = photo.rating
        order = photo.order
        hasLocation = photo.location != nil
    }

    /// A photo with the fields `PhotoOrder` sorts by (and no others).
    package var sortPhoto: Photo {
        var photo = Photo(id: id, title: title, takenAt: takenAt, album: album, image: Self.noImage)
        photo.fallbackTitle = fallbackTitle
        photo.rating = rating
        photo.order = order
        return photo
    }

    private static let noImage = ImageLocation.file(URL(fileURLWithPath: "/"))
}

/// The site's published photos in order. Each `GalleryItem` (about 1 KB in memory, with its photo's
/// text and its derivatives) is written once to a temporary file that has no name (unlinked as soon
/// as it is made, so even a killed build leaves nothing behind) and read back when a page shows it;
/// only its `ItemFacts` stay in memory. Pages are worked on a window at a time, so a 1,000,000-photo
/// site never holds more than a few hundred items at once.
package struct ItemList: Sendable {
    /// Each item's facts, in the list's order.
    package private(set) var facts: [ItemFacts]
    /// Where each item's encoded bytes are in `file`, in the list's order.
    private var records: [Record]
    /// Nil for the empty list only.
    private let file: SpillFile?

    package typealias Record = SpillFile.Record

    package var count: Int { facts.count }
    package var indices: Range<Int> { facts.indices }
    package var isEmpty: Bool { facts.isEmpty }

    /// The item at `index`, read from the file.
    /// - Throws: `SpillFileError` naming the state folder, when the file cannot be read back (a broken disk):
    ///   the page that shows the item fails, and with it the build, which keeps the previous site.
    package subscript(index: Int) -> GalleryItem {
        get throws {
            // Only an images-only build keeps no file, and it renders no pages.
            guard let file else {
                throw SpillFileError(.notKept, "the build kept only its items' facts: item \(index) cannot be read")
            }
            return try file.value(records[index], ItemCoding.decode)
        }
    }

    /// The same items, `self[i]` becoming the old `self[order[i]]`, without copying them.
    package mutating func permute(by order: [Int]) {
        facts.permute(by: order)
        if !records.isEmpty { records.permute(by: order) }
    }

    /// Items in memory, spilled to a temporary file (previews and tests).
    package init(_ items: [GalleryItem], folder: URL = FileManager.default.temporaryDirectory) throws {
        var builder = try Builder(folder: folder)
        for item in items { builder.append(item) }
        self = try builder.finish()
    }

    /// No items, and no file.
    package static let empty = ItemList(facts: [], records: [], file: nil)

    fileprivate init(facts: [ItemFacts], records: [Record], file: SpillFile?) {
        self.facts = facts
        self.records = records
        self.file = file
    }

    /// Writes items as they are published, in any order, and keeps their facts.
    package struct Builder: Sendable {
        package private(set) var facts: [ItemFacts] = []
        private var records: [Record] = []
        /// Nil when only the facts are kept (an images-only build renders no pages).
        private var writer: SpillWriter?
        private var failure: String?
        private var interned = Interned()

        /// - Parameter folder: Where the unnamed file is made (the state folder: on the disk the build
        ///   already writes to); nil to keep only the items' facts.
        package init(folder: URL?) throws {
            writer = try folder.map(SpillWriter.init)
        }

        package var count: Int { facts.count }

        package mutating func append(_ item: GalleryItem) {
            guard failure == nil else { return }
            do {
                if writer != nil { records.append(try writer!.append(ItemCoding.encode(item))) }
                var fact = ItemFacts(item.photo)
                fact.album = interned.album(fact.album)
                fact.tags = interned.tags(fact.tags)
                facts.append(fact)
            } catch {
                failure = "\(error)"
            }
        }

        /// Reorders what was appended so far, as `ItemList.permute`.
        package mutating func permute(by order: [Int]) {
            facts.permute(by: order)
            if !records.isEmpty { records.permute(by: order) }
        }

        /// The list, or the error that stopped an item being written (a full disk, say).
        package mutating func finish() throws -> ItemList {
            if failure == nil {
                do { try writer?.flush() } catch { failure = "\(error)" }
            }
            if let failure {
                throw SpillFileError(
                    .writeFailed, "\(writer?.file.folder ?? ""): the build's item file could not be written: \(failure)"
                )
            }
            return ItemList(facts: facts, records: records, file: writer?.file)
        }
    }
}
