import Crypto
import Foundation
import GalleryOutput
import Testing

/// The album zip itself: readable by `unzip` and Python, stored, byte for byte the files given,
/// the same bytes every time; and a 5 GB album (sparse files) in flat memory, with Zip64.
@Suite("Album zip writer")
struct AlbumZipWriterTests {
    static func sha256(_ path: String) throws -> String {
        SHA256.hash(data: try Data(contentsOf: URL(fileURLWithPath: path))).map { String(format: "%02x", $0) }.joined()
    }

    /// Three files: two JPEGs of the fixtures and an empty one.
    static func members(in folder: URL) throws -> [AlbumZipWriter.Member] {
        let images = Fixtures.url("images")
        var members: [AlbumZipWriter.Member] = []
        for (name, source) in [("IMG_1.jpg", "photo-1.jpg"), ("IMG_1-2.jpg", "photo-2.jpg")] {
            let path = folder.appendingPathComponent(source).path
            try FileManager.default.copyItem(atPath: images.appendingPathComponent(source).path, toPath: path)
            members.append(AlbumZipWriter.Member(name: name, path: path))
        }
        let empty = folder.appendingPathComponent("empty.jpg").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        members.append(AlbumZipWriter.Member(name: "Émpty (1).jpg", path: empty))
        return members
    }

    @Test func unzipAndPythonReadItStoredAndByteForByte() throws {
        let folder = try Fixtures.temporaryFolder()
        let members = try Self.members(in: folder)
        let archive = folder.appendingPathComponent("album.zip").path
        let size = try AlbumZipWriter.write(members, to: archive)
        #expect(size == (try FileManager.default.attributesOfItem(atPath: archive)[.size] as? NSNumber)?.int64Value)

        let tested = try ZipCheck.run("unzip", ["-t", archive])
        #expect(tested.status == 0, "\(tested.output)")
        #expect(tested.output.contains("No errors detected"))
        let listed = try ZipCheck.run("unzip", ["-v", archive])
        #expect(listed.output.matches(of: /Stored/).count == 3, "\(listed.output)")

        let listing = try ZipCheck.python(archive)
        #expect(listing.bad == nil)
        #expect(listing.entries.map(\.name) == members.map(\.name))
        #expect(listing.entries.allSatisfy { $0.compressType == 0 })  // ZIP_STORED
        for (entry, member) in zip(listing.entries, members) {
            #expect(entry.sha256 == (try Self.sha256(member.path)), "\(entry.name)")
        }
    }

    @Test func sameFilesGiveTheSameBytes() throws {
        let folder = try Fixtures.temporaryFolder()
        let members = try Self.members(in: folder)
        let first = folder.appendingPathComponent("a.zip").path
        let second = folder.appendingPathComponent("b.zip").path
        try AlbumZipWriter.write(members, to: first)
        // The sources' own dates change; the zip must not.
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSinceNow: -86_400)], ofItemAtPath: members[0].path)
        try AlbumZipWriter.write(members, to: second)
        #expect(try Self.sha256(first) == (try Self.sha256(second)))
    }

    @Test func aMissingMemberNamesItself() throws {
        let folder = try Fixtures.temporaryFolder()
        let error = try #require(throws: OutputError.self) {
            try AlbumZipWriter.write(
                [AlbumZipWriter.Member(name: "a.jpg", path: folder.appendingPathComponent("gone.jpg").path)],
                to: folder.appendingPathComponent("z.zip").path)
        }
        #expect(error.kind == .unreadable && error.path.hasSuffix("/gone.jpg"), "\(error)")
    }

    /// The kernel's record of this process's peak resident memory, in bytes.
    static func peakResidentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
    }

    /// Sparse files of 4.4 and 1 GB: a 5.4 GB zip, past every 32-bit field (an entry's size, the second
    /// entry's offset, the central directory's). Slow (it writes 5.4 GB and `unzip -t` CRCs it back:
    /// 47 s in a release build on the 2-core development machine, 60 s in a debug one), so it runs only
    /// with GALLERYSSG_ZIP64=1: Benchmarks/zip64.sh runs it alone and prints the figures.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["GALLERYSSG_ZIP64"] == "1"))
    func fiveGigabytesStreamInFlatMemoryWithZip64() throws {
        let folder = try Fixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sizes: [UInt64] = [4_400_000_000, 1_000_000_000]
        var members: [AlbumZipWriter.Member] = []
        for (name, size) in zip(["big-1.jpg", "big-2.jpg"], sizes) {
            let path = folder.appendingPathComponent(name).path
            #expect(FileManager.default.createFile(atPath: path, contents: Data("JPEG head \(name)".utf8)))
            let handle = try #require(FileHandle(forWritingAtPath: path))
            try handle.truncate(atOffset: size)  // sparse: no disk used, reads give zeros
            try handle.close()
            members.append(AlbumZipWriter.Member(name: name, path: path))
        }
        let zip = folder.appendingPathComponent("big.zip").path
        let before = Self.peakResidentBytes()
        let clock = ContinuousClock.now
        let bytes = try AlbumZipWriter.write(members, to: zip)
        let seconds = clock.duration(to: .now)
        let growth = Self.peakResidentBytes() - before
        print(
            "zip64: \(bytes) bytes in \(seconds); peak RSS before \(before / 1_000_000) MB, growth \(growth / 1_000_000) MB"
        )
        #expect(bytes > Int64(sizes.reduce(0, +)))
        #expect(growth < 100_000_000, "peak memory grew by \(growth) bytes")

        let listed = try ZipCheck.run("unzip", ["-l", zip])
        #expect(listed.status == 0, "\(listed.output)")
        #expect(listed.output.contains("4400000000") && listed.output.contains("1000000000"), "\(listed.output)")
        let tested = try ZipCheck.run("unzip", ["-tq", zip])
        #expect(tested.status == 0, "\(tested.output)")
        let listing = try ZipCheck.python(zip, hash: false)
        #expect(listing.zip64)
        #expect(listing.entries.map(\.size) == sizes.map(Int64.init))
        #expect(listing.entries.map(\.name) == ["big-1.jpg", "big-2.jpg"])
    }
}
