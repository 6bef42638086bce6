import Foundation

/// A manifest's bytes, taken a chunk at a time so that a large file is never held whole, with the
/// bytes of the one value being read kept until it is decoded.
///
/// `ManifestDocument` reads through it byte by byte; `keep()` and `takeKept(into:)` bracket a value,
/// which may span any number of chunks.
package struct ManifestBytes {
    /// Bytes read from a file at a time: large enough that reading costs nothing next to decoding.
    package static let chunkSize = 1 << 20

    private let nextChunk: () throws -> [UInt8]?
    private var chunk: [UInt8] = []
    private var position = 0
    /// Bytes of earlier chunks, before `chunk[0]`.
    private var dropped = 0
    private var atEnd = false
    /// Where the value being kept starts in `chunk`; what it had of earlier chunks is in `kept`.
    private var keptFrom: Int?
    private var kept: [UInt8] = []
    /// The document's length in bytes, when known before it is read.
    package private(set) var size: Int?

    /// Bytes from `nextChunk`, which returns nil at the end (and may return empty chunks before it).
    package init(chunks nextChunk: @escaping () throws -> [UInt8]?) {
        self.nextChunk = nextChunk
    }

    /// The bytes of `data`, `chunkSize` at a time (tests split documents into tiny chunks).
    package static func data(_ data: Data, chunkSize: Int = chunkSize) -> ManifestBytes {
        var offset = data.startIndex
        var bytes = ManifestBytes {
            guard offset < data.endIndex else { return nil }
            let end = offset + min(chunkSize, data.endIndex - offset)
            defer { offset = end }
            return [UInt8](data[offset..<end])
        }
        bytes.size = data.count
        return bytes
    }

    /// The rest of an open file, `chunkSize` at a time; a failed read throws `failure`.
    package static func file(_ handle: FileHandle, chunkSize: Int = chunkSize, failure: @escaping () -> any Error)
        -> ManifestBytes
    {
        var bytes = ManifestBytes {
            let data: Data?
            do {
                data = try handle.read(upToCount: chunkSize)
            } catch {
                throw failure()
            }
            guard let data, !data.isEmpty else { return nil }
            return [UInt8](data)
        }
        if let start = try? handle.offset(), let end = try? handle.seekToEnd(),
            (try? handle.seek(toOffset: start)) != nil
        {
            bytes.size = Int(end - start)
        }
        return bytes
    }

    /// The byte at the read position; nil at the end of the document.
    @inline(__always)
    package mutating func peek() throws -> UInt8? {
        if position < chunk.count { return chunk[position] }
        return try refill() ? chunk[position] : nil
    }

    /// How many bytes precede the read position, for saying where a document goes wrong.
    package var offset: Int { dropped + position }

    /// The bytes from the read position to the end of the current chunk, or of the next non-empty one,
    /// which it moves past; nil at the end (not while keeping).
    mutating func takeChunk() throws -> ArraySlice<UInt8>? {
        if position == chunk.count, !(try refill()) { return nil }
        defer { position = chunk.count }
        return chunk[position...]
    }

    /// Moves past the byte `peek()` returned.
    @inline(__always)
    package mutating func advance() {
        position += 1
    }

    /// Up to `count` bytes from the read position, without moving past them (not while keeping).
    mutating func lookAhead(_ count: Int) throws -> [UInt8] {
        while chunk.count - position < count, !atEnd {
            if let next = try nextChunk() {
                dropped += position
                chunk = Array(chunk[position...]) + next
                position = 0
            } else {
                atEnd = true
            }
        }
        return Array(chunk[position..<min(position + count, chunk.count)])
    }

    /// Everything from the read position to the end, which it moves to (not while keeping).
    package mutating func rest() throws -> [UInt8] {
        var bytes = Array(chunk[position...])
        while !atEnd, let next = try nextChunk() {
            bytes += next
        }
        dropped += position + bytes.count
        chunk = []
        position = 0
        atEnd = true
        return bytes
    }

    /// Starts keeping bytes at the read position.
    package mutating func keep() {
        kept.removeAll(keepingCapacity: true)
        keptFrom = position
    }

    /// Appends the bytes kept since `keep()`, up to the read position, to `buffer`, and stops keeping.
    mutating func takeKept(into buffer: inout Data) {
        guard let keptFrom else { preconditionFailure("takeKept(into:) without keep()") }
        buffer.append(contentsOf: kept)
        chunk[keptFrom..<position].withUnsafeBufferPointer { buffer.append($0) }
        self.keptFrom = nil
        // A value of many megabytes (an unknown top-level key's) need not stay allocated.
        if kept.capacity > Self.chunkSize { kept = [] }
    }

    /// Moves to the next non-empty chunk, keeping what the value being kept had of this one.
    private mutating func refill() throws -> Bool {
        guard !atEnd else { return false }
        if let keptFrom {
            kept += chunk[keptFrom...]
            self.keptFrom = 0
        }
        dropped += chunk.count
        chunk = []
        position = 0
        while let next = try nextChunk() {
            if !next.isEmpty {
                chunk = next
                return true
            }
        }
        atEnd = true
        return false
    }
}
