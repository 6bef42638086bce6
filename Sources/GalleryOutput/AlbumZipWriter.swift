import Foundation
import ZIPFoundation

/// Writes an album's zip: the only file that imports ZIPFoundation.
///
/// Entries are stored, not deflated (JPEG, HEIC and MP4 do not compress), and each is copied from
/// its file to the zip a chunk at a time, so memory stays flat however large the album; past 4 GiB
/// ZIPFoundation writes Zip64 records. Every entry has the same fixed date and permissions, so the
/// same files under the same names give the same bytes in every build.
package enum AlbumZipWriter {
    /// A file to put in the zip: its name there (already safe and unique) and where it is on disk.
    package struct Member: Sendable, Equatable {
        package var name: String
        package var path: String

        package init(name: String, path: String) {
            self.name = name
            self.path = path
        }
    }

    /// The date every entry carries: 2000-01-01 00:00 UTC, not the build's time, so zips of the same
    /// files are byte-identical (ZIP dates are DOS dates, from 1980 on).
    static let entryDate = Date(timeIntervalSince1970: 946_684_800)
    /// Bytes copied at a time.
    package static let chunkSize = 1 << 20

    /// Writes `members`, in order, to a new zip at `target` (which must not exist yet).
    /// - Returns: The zip's size in bytes.
    /// - Throws: `OutputError` naming the member or the zip.
    @discardableResult
    package static func write(_ members: [Member], to target: String) throws -> Int64 {
        do {
            // The archive is closed (its central directory flushed) when it goes, at the end of this scope.
            let archive = try Archive(url: URL(fileURLWithPath: target), accessMode: .create)
            for member in members { try add(member, to: archive) }
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError(.writeFailed, path: target, "the album's zip could not be written: \(error)")
        }
        guard let size = (try? FileManager.default.attributesOfItem(atPath: target))?[.size] as? NSNumber else {
            throw OutputError(.writeFailed, path: target, "the album's zip vanished right after it was written")
        }
        return size.int64Value
    }

    private static func add(_ member: Member, to archive: Archive) throws {
        guard let handle = FileHandle(forReadingAtPath: member.path),
            let size = (try? FileManager.default.attributesOfItem(atPath: member.path))?[.size] as? NSNumber
        else {
            throw OutputError(.unreadable, path: member.path, "could not be read to put it in the album's zip")
        }
        defer { try? handle.close() }
        try archive.addEntry(
            with: member.name, type: .file, uncompressedSize: size.int64Value, modificationDate: entryDate,
            permissions: 0o644, compressionMethod: .none, bufferSize: chunkSize
        ) { position, count in
            try handle.seek(toOffset: UInt64(position))
            return try handle.read(upToCount: count) ?? Data()
        }
    }
}
