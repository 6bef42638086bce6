import Foundation
import GalleryModel
import GalleryRender
import GalleryStore

/// The manifest's photos while the `images` step works through them. Once the manifest is read they
/// are written to a nameless file (`SpillFile`; about 0.7 KB each in memory, 700 MB for 1,000,000)
/// and each is read back when its turn comes, so the images step holds only the photos in flight.
package struct PhotoList: PhotoWindows {
    private let records: [SpillFile.Record]
    private let file: SpillFile?

    package var startIndex: Int { 0 }
    package var endIndex: Int { records.count }

    /// Writes `photos` to a file in `folder` (the state folder), in order.
    package init(_ photos: consuming [Photo], folder: URL) throws {
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
            try writer.flush()
        } catch {
            throw StoreError("\(folder.path): the build's photo list could not be written: \(error)")
        }
        self.records = records
        file = writer.file
    }

    package subscript(index: Int) -> Photo {
        do {
            guard let file else { throw StoreError("no photo file") }
            return try file.read(records[index]).withUnsafeBytes(ItemCoding.decodePhoto)
        } catch {
            // As `ItemList`: the file is this process's own, written whole before the first read.
            fatalError("the build's photo list could not be read back: \(error)")
        }
    }

    /// The photos of `range`, read in one go: a window's records follow each other in the file.
    package func photos(in range: Range<Int>) -> [Photo] {
        guard let first = range.first, let file else { return [] }
        let start = records[first].offset
        let span = SpillFile.Record(offset: start, length: records[range.last!].offset + records[range.last!].length - start)
        do {
            let data = try file.read(span)
            return try data.withUnsafeBytes { bytes in
                try range.map { index in
                    let record = records[index]
                    return try ItemCoding.decodePhoto(UnsafeRawBufferPointer(rebasing: bytes[(record.offset - start)..<(record.offset - start + record.length)]))
                }
            }
        } catch {
            fatalError("the build's photo list could not be read back: \(error)")
        }
    }
}

/// Photos the `images` step takes a window at a time: the manifest's `PhotoList`, or a shard's slice.
package protocol PhotoWindows: RandomAccessCollection<Photo>, Sendable where Index == Int {
    func photos(in range: Range<Int>) -> [Photo]
}

extension Array: PhotoWindows where Element == Photo {
    package func photos(in range: Range<Int>) -> [Photo] { Array(self[range]) }
}
