import Foundation

/// The manifest's photos while the `images` step works through them. Once the manifest is read they
/// are written to a nameless file (`SpillFile`; about 0.7 KB each in memory, 700 MB for 1,000,000)
/// and each is read back when its turn comes, so the images step holds only the photos in flight.
struct PhotoList: RandomAccessCollection, Sendable {
    private let records: [SpillFile.Record]
    private let file: SpillFile?

    var startIndex: Int { 0 }
    var endIndex: Int { records.count }

    /// Writes `photos` to a file in `folder` (the state folder), in order.
    init(_ photos: consuming [Photo], folder: URL) throws {
        guard !photos.isEmpty else {
            records = []
            file = nil
            return
        }
        var writer = try SpillWriter(folder: folder)
        var records: [SpillFile.Record] = []
        records.reserveCapacity(photos.count)
        do {
            for photo in photos { records.append(try writer.append(ItemCoding.encode(photo))) }
        } catch {
            throw StoreError("\(folder.path): the build's photo list could not be written: \(error)")
        }
        self.records = records
        file = writer.file
    }

    subscript(index: Int) -> Photo {
        do {
            guard let file else { throw StoreError("no photo file") }
            return try file.read(records[index]).withUnsafeBytes(ItemCoding.decodePhoto)
        } catch {
            // As `ItemList`: the file is this process's own, written whole before the first read.
            fatalError("the build's photo list could not be read back: \(error)")
        }
    }
}
