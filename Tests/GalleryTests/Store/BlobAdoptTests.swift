import Foundation
import GalleryModel
import GalleryStore
import Testing

/// `BlobStore.adopt`: a finished file (a video's web file) renamed into the store under its key.
@Suite struct BlobAdoptTests {
    /// A rename that fails says why in the system's words; it said "(GalleryStore.StoreError error 1.)",
    /// Swift's name for the error it threw itself.
    @Test func aFailedRenameSaysWhy() throws {
        let folder = try Fixtures.temporaryFolder()
        let store = BlobStore(folder: folder, kind: "images")
        let key = Fixtures.key("web file")
        let file = folder.appendingPathComponent("made.mp4")
        try Data("clip".utf8).write(to: file)
        // A folder, not empty, where the blob goes: a file cannot be renamed over it.
        try FileManager.default.createDirectory(atPath: store.path(key) + "/taken", withIntermediateDirectories: true)
        let error = try #require(throws: StoreError.self) { try store.adopt(file.path, key: key) }
        #expect(error.kind == .writeFailed)
        // The words a person reads carry the system's reason.
        #expect(
            error.description == "\(store.path(key)): \(POSIXError(.EISDIR).localizedDescription)", "\(error)")
    }
}
