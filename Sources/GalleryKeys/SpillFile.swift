import Foundation
import GalleryModel
import Glibc

/// A read-write file with no name, in `folder`, closed when the last list using it goes: values a
/// build makes once and reads back later (`ItemList`, `PhotoList`) wait there instead of in memory.
/// The name is unlinked as soon as the file is made, so even a killed build leaves nothing behind.
package final class SpillFile: Sendable {
    /// Where one value's bytes are.
    package struct Record: Sendable {
        package var offset: Int
        package var length: Int

        package init(offset: Int, length: Int) {
            self.offset = offset
            self.length = length
        }
    }

    package let descriptor: Int32
    package let folder: String

    package init(folder: URL) throws {
        self.folder = folder.path
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var template = Array((folder.path + "/.items-XXXXXX").utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard descriptor >= 0 else {
            throw SpillFileError(
                .notMade, "\(folder.path): cannot make the build's item file: \(String(cString: strerror(errno)))")
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Writes `data` at `offset`.
    package func write(_ data: [UInt8], at offset: Int) throws {
        try data.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let written = pwrite(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                guard written > 0 else {
                    throw SpillFileError(.writeFailed, "write: \(String(cString: strerror(errno)))")
                }
                done += written
            }
        }
    }

    /// The bytes of `record`.
    /// - Throws: `SpillFileError` naming the folder, when the file cannot be read or ends before the record does.
    package func read(_ record: Record) throws -> Data {
        var data = Data(count: record.length)
        try data.withUnsafeMutableBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = pread(
                    descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(record.offset + done))
                guard count > 0 else {
                    let reason =
                        count == 0
                        ? "the file ends at byte \(record.offset + done), before the \(record.length) bytes "
                            + "from byte \(record.offset) were read" : String(cString: strerror(errno))
                    throw SpillFileError(
                        .readFailed, "\(folder): the build's spill file could not be read back: \(reason)")
                }
                done += count
            }
        }
        return data
    }
}

extension SpillFile {
    /// The value in `record`, as `decode` makes it from the bytes.
    /// - Throws: `SpillFileError` naming the folder, when the bytes cannot be read back or are not a value.
    package func value<Value>(_ record: Record, _ decode: (UnsafeRawBufferPointer) throws -> Value) throws -> Value {
        try values(from: record, decode)
    }

    /// What `decode` makes of the bytes of `span` (the records of a window, read in one go).
    /// - Throws: As `value(_:_:)`.
    package func values<Value>(from span: Record, _ decode: (UnsafeRawBufferPointer) throws -> Value) throws -> Value {
        let data = try read(span)
        do {
            return try data.withUnsafeBytes(decode)
        } catch {
            throw SpillFileError(
                .damaged,
                "\(folder): the build's spill file could not be read back: bytes \(span.offset) to "
                    + "\(span.offset + span.length) are not what was written there (\(error))")
        }
    }
}

/// A spill file that could not be made, written or read back; the build stops and keeps the previous site.
///
/// Callers that act on the problem switch on `kind`, never on the words.
package typealias SpillFileError = KindedFailure<SpillFileErrorKind>

/// What went wrong, for a `SpillFileError`.
package enum SpillFileErrorKind: Sendable, Equatable {
    /// The file could not be made in the state folder.
    case notMade
    /// A value could not be written to the file (a full disk, say).
    case writeFailed
    /// The file could not be read back, or ends before a value does.
    case readFailed
    /// Bytes read back are not the value written there.
    case damaged
    /// The build kept no file, only its items' facts, and an item was asked for.
    case notKept
}

/// Appends values to a `SpillFile`, one after the other, a megabyte at a time (a write per value
/// was a tenth of a no-op build's time). `flush` before reading.
package struct SpillWriter: Sendable {
    package let file: SpillFile
    private var end = 0
    private var buffer: [UInt8] = []
    /// Where `buffer` goes in the file.
    private var bufferStart = 0
    package static let bufferSize = 1 << 20

    package init(folder: URL) throws {
        file = try SpillFile(folder: folder)
    }

    /// Adds `bytes` after the last value; returns where they will be.
    package mutating func append(_ bytes: [UInt8]) throws -> SpillFile.Record {
        if buffer.count + bytes.count > Self.bufferSize { try flush() }
        if buffer.isEmpty { buffer.reserveCapacity(Self.bufferSize) }
        buffer.append(contentsOf: bytes)
        defer { end += bytes.count }
        return SpillFile.Record(offset: end, length: bytes.count)
    }

    /// Writes what is buffered.
    package mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try file.write(buffer, at: bufferStart)
        bufferStart += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }
}
