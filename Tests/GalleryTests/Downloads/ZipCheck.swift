import Foundation

/// Reads zips the way visitors' tools do: Info-ZIP's `unzip` and Python's `zipfile`.
enum ZipCheck {
    /// Runs a program and returns its exit status and output (stdout and stderr together).
    static func run(_ program: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [program] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// What Python's zipfile says of a zip: each entry's name, size, compression type, CRC check
    /// (`testzip`), whether it is Zip64 (a Zip64 end record, and an entry or offset past 32 bits),
    /// and the SHA-256 of its contents (read as a stream).
    struct Entry: Decodable, Equatable {
        var name: String
        var size: Int64
        var compressType: Int
        var sha256: String
    }

    struct Listing: Decodable {
        var entries: [Entry]
        /// The first entry whose CRC is wrong, or nil.
        var bad: String?
        var zip64: Bool
    }

    /// Python reads every entry in chunks, so a 5 GB zip costs no memory there either; without
    /// `hash`, only each entry's first 64 bytes (`sha256` of those) and no CRC check.
    static func python(_ zip: String, hash: Bool = true) throws -> Listing {
        let script = """
            import hashlib, json, sys, zipfile
            z = zipfile.ZipFile(sys.argv[1])
            bad = z.testzip() if sys.argv[2] == '1' else None
            out = []
            for info in z.infolist():
                h = hashlib.sha256()
                with z.open(info) as f:
                    if sys.argv[2] == '1':
                        for chunk in iter(lambda: f.read(1 << 20), b''):
                            h.update(chunk)
                    else:
                        h.update(f.read(64))  # reaches the entry through its (Zip64) offset
                out.append({'name': info.filename, 'size': info.file_size, 'compressType': info.compress_type, 'sha256': h.hexdigest()})
            with open(sys.argv[1], 'rb') as f:   # the Zip64 end-of-central-directory locator, in the tail
                f.seek(max(0, f.seek(0, 2) - 65536))
                locator = bytes([0x50, 0x4B, 6, 7]) in f.read()
            zip64 = locator and any(i.file_size >= 0xFFFFFFFF or i.header_offset >= 0xFFFFFFFF for i in z.infolist())
            print(json.dumps({'entries': out, 'bad': bad, 'zip64': zip64}))
            """
        let result = try run("python3", ["-c", script, zip, hash ? "1" : "0"])
        guard result.status == 0 else { throw CheckFailure(description: "python3 zipfile: \(result.output)") }
        return try JSONDecoder().decode(Listing.self, from: Data(result.output.utf8))
    }

    struct CheckFailure: Error, CustomStringConvertible {
        var description: String
    }
}
