import Foundation
import GalleryKeys
import GalleryModel
import GalleryRender
import GalleryStore

/// The manifest's photos while the `images` step works through them. Once the manifest is read they
/// are written to a nameless file (`SpillFile`; about 0.7 KB each in memory, 700 MB for 1,000,000)
/// and each is read back when its turn comes, so the images step holds only the photos in flight.
package struct PhotoList: PhotoWindows {
    private let records: [SpillFile.Record]
    private let file: SpillFile?

    package var count: Int { records.count }
    package var isEmpty: Bool { records.isEmpty }

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
            throw SpillFileError(.writeFailed, "\(folder.path): the build's photo list could not be written: \(error)")
        }
        self.records = records
        file = writer.file
    }

    /// The photos of `range`, read in one go: a window's records follow each other in the file.
    /// - Throws: `SpillFileError` naming the state folder, when the file cannot be read back (a broken disk).
    package func photos(in range: Range<Int>) throws -> [Photo] {
        guard let first = range.first, let file else { return [] }
        let start = records[first].offset
        let span = SpillFile.Record(
            offset: start, length: records[range.last!].offset + records[range.last!].length - start)
        return try file.values(from: span) { bytes in
            try range.map { index in
                let record = records[index]
                return try ItemCoding.decodePhoto(
                    UnsafeRawBufferPointer(
                        rebasing: bytes[(record.offset - start)..<(record.offset - start + record.length)]))
            }
        }
    }
}

/// Photos the `images` step takes a window at a time: the manifest's `PhotoList`, or a shard's slice.
package protocol PhotoWindows: Sendable {
    var count: Int { get }
    var isEmpty: Bool { get }
    /// - Throws: `SpillFileError` when the photos were kept in a file that cannot be read back.
    func photos(in range: Range<Int>) throws -> [Photo]
}

extension PhotoWindows {
    /// The photo at `index`, read alone.
    package func photo(at index: Int) throws -> Photo { try photos(in: index..<index + 1)[0] }
}

extension Array: PhotoWindows where Element == Photo {
    package func photos(in range: Range<Int>) -> [Photo] { Array(self[range]) }
}
