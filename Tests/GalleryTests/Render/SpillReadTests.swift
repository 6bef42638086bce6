import Foundation
import GalleryKeys
import GalleryModel
import GalleryPipeline
import GalleryRender
import Glibc
import Testing

/// A build's spill file (`SpillFile`: the items and the manifest's photos, kept on disk) that can no
/// longer be read back makes the read throw, naming the state folder, to the page or step that
/// needed it; the build then stops and keeps the previous site. It used to be a `fatalError`.
@Suite("Spill files that cannot be read back") struct SpillReadTests {
    /// This process's spill files in `folder`. They have no name (unlinked once made), so they are
    /// found among the process's open files.
    static func spillDescriptors(in folder: URL) throws -> [Int32] {
        let prefix = folder.resolvingSymlinksInPath().path + "/.items-"
        return try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { entry in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)")
            return target?.hasPrefix(prefix) == true ? Int32(entry) : nil
        }
    }

    /// Cuts the spill files in `folder` to nothing, as a broken disk might leave them; returns how many.
    static func truncateSpillFiles(in folder: URL) throws -> Int {
        let descriptors = try spillDescriptors(in: folder)
        for descriptor in descriptors where ftruncate(descriptor, 0) != 0 { throw POSIXError(.EIO) }
        return descriptors.count
    }

    static func expectUnreadable(
        in folder: URL, _ kind: SpillFileError.Kind = .readFailed, _ read: () throws -> Void
    ) {
        let error = #expect(throws: SpillFileError.self) { try read() }
        #expect(error?.kind == kind, "\(String(describing: error))")
        // The words name the state folder, where a person looks for the broken disk.
        #expect(error?.description.hasPrefix(folder.path + ": ") == true, "\(String(describing: error))")
    }

    @Test func aRecordPastTheFilesEndThrows() throws {
        let folder = try Fixtures.temporaryFolder()
        var writer = try SpillWriter(folder: folder)
        let record = try writer.append(Array("a value".utf8))
        try writer.flush()
        #expect(try writer.file.read(record) == Data("a value".utf8))
        #expect(ftruncate(writer.file.descriptor, 3) == 0)
        Self.expectUnreadable(in: folder) { _ = try writer.file.read(record) }
        Self.expectUnreadable(in: folder) { _ = try writer.file.value(record) { $0.count } }
    }

    /// Bytes that are there but are not the value written (a disk returning garbage) throw too.
    @Test func bytesThatAreNotAValueThrow() throws {
        let folder = try Fixtures.temporaryFolder()
        let list = try ItemList([AlbumFixture().items([AlbumFixture.photo("a")])[0]], folder: folder)
        #expect(try list[0].photo.id == "a")
        let fd = try #require(try Self.spillDescriptors(in: folder).first)
        let garbage = [UInt8](repeating: 0xFF, count: 4096)
        #expect(pwrite(fd, garbage, garbage.count, 0) == garbage.count)
        Self.expectUnreadable(in: folder, .damaged) { _ = try list[0] }
    }

    /// The pages that show an item whose bytes are gone fail with the read's error; those that need
    /// only the items' facts (kept in memory) are still made.
    @Test func pagesThatNeedALostItemThrow() throws {
        let fixture = try AlbumFixture()
        let folder = try Fixtures.temporaryFolder()
        let photos = (0..<4).map { AlbumFixture.photo("p\($0)", album: "Trip") }
        let plan = fixture.renderer.plan(
            try ItemList(fixture.items(photos), folder: folder), placeholders: Fixtures.placeholder)
        #expect(try fixture.render(plan).count == plan.pages.count)
        #expect(try Self.truncateSpillFiles(in: folder) == 1)
        for page in [SitePage.home(page: 1), .photo(index: 0), .album(index: 0, page: 1), .albums, .feed] {
            Self.expectUnreadable(in: folder) { _ = try fixture.renderer.model(of: page, in: plan) }
        }
        Self.expectUnreadable(in: folder) { try fixture.renderer.plainFiles(plan) { _ in } }
        _ = try fixture.renderer.model(of: .tags, in: plan)
        _ = try fixture.renderer.model(of: .notFound, in: plan)
    }

    @Test func aPhotoListCutShortThrows() throws {
        let folder = try Fixtures.temporaryFolder()
        let photos = (0..<5).map { AlbumFixture.photo("p\($0)") }
        let list = try PhotoList(photos, folder: folder)
        #expect(try list.photos(in: 0..<5) == photos)
        #expect(try Self.truncateSpillFiles(in: folder) == 1)
        Self.expectUnreadable(in: folder) { _ = try list.photos(in: 0..<5) }
        Self.expectUnreadable(in: folder) { _ = try list.photo(at: 4) }
    }
}
