import Foundation
import GalleryModel
import GalleryStore
import Testing

/// The pending rows are read back in batches on the database's queue (`forEachPendingRow`): every
/// written row comes back once, in manifest order, across batch boundaries, and rows that only
/// moved (no metadata) are left to the snapshot.
@Suite struct PendingReadTests {
    @Test func pendingRowsComeBackInOrderAcrossBatches() async throws {
        let database = try StateDatabase.open(folder: try Fixtures.temporaryFolder())
        let count = 2 * StateDatabase.pendingReadBatch + 5
        func row(_ position: Int) -> StateDatabase.PendingPhoto {
            let key = Fixtures.key("photo \(position)")
            let state = PhotoState(id: "p\(position)", position: position, metadataHash: key, location: "/photos/\(position).jpg",
                                   contentHash: key, blobKeys: [key], thumbnailKey: key)
            return StateDatabase.PendingPhoto(row: state, metadata: position % 7 == 3 ? nil : "{}")
        }
        // Written out of order and in several transactions, as photos finish.
        let positions = Array(0..<count).shuffled()
        for start in stride(from: 0, to: count, by: 1000) {
            try await database.addPendingRows(positions[start..<min(start + 1000, count)].map(row))
        }
        var read: [Int] = []
        try await database.forEachPendingRow { read.append($0.position) }
        #expect(read == (0..<count).filter { $0 % 7 != 3 })
    }
}
