import Foundation
import GRDB

/// A damaged state database: a file that is not one, or whose pages SQLite finds malformed, at open
/// or at any later read. Everything in it can be made again (the cache's records, the pages' keys,
/// what was read from the originals, the last manifest of a source that can be asked again; album
/// keys and the site secret are files of their own), so a build sets it aside, keeping it, and goes
/// on from a fresh state, except where it holds what cannot be had again (`build --offline`'s manifest).
extension StateDatabase {
    /// Whether `error` is SQLite saying the database file is damaged (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    package static func isDamage(_ error: any Error) -> Bool {
        guard let error = error as? DatabaseError else { return false }
        return [ResultCode.SQLITE_CORRUPT, ResultCode.SQLITE_NOTADB].contains(error.resultCode)
    }

    /// Whether `error` is SQLite finding the disk full (`SQLITE_FULL`).
    package static func isFull(_ error: any Error) -> Bool {
        (error as? DatabaseError)?.resultCode == .SQLITE_FULL
    }

    /// SQLite's words for a damage or a full disk ("database disk image is malformed").
    package static func reason(_ error: any Error) -> String {
        (error as? DatabaseError)?.message ?? "\(error)"
    }

    /// Moves the damaged database `file` aside, with its write-ahead log and shared-memory file,
    /// as `state.sqlite.damaged-YYYYMMDD-HHMMSS` (UTC; `-wal`, `-shm` after it, so SQLite still
    /// finds the log with the file), where it is kept for whoever wants to look into it.
    /// - Returns: The warning to show, naming the kept file.
    /// - Throws: `StoreError` when the file cannot be moved.
    package static func setAside(_ file: URL, damage: any Error, now: Date = Date()) throws -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        var kept = file.path + ".damaged-" + formatter.string(from: now)
        var number = 1
        while FileManager.default.fileExists(atPath: kept) {
            number += 1
            kept = file.path + ".damaged-" + formatter.string(from: now) + "-\(number)"
        }
        for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: file.path + suffix) {
            do {
                try FileManager.default.moveItem(atPath: file.path + suffix, toPath: kept + suffix)
            } catch {
                throw StoreError.writing(file.path + suffix, error)
            }
        }
        return StoreError.setAside(file.path, kept: kept, reason: reason(damage))
    }

    /// Closes the connection, so a damaged file can be set aside; what still holds the database
    /// gets errors from now on.
    package func close() {
        try? queue.close()
    }
}
