import Foundation
import GalleryConfig
import GalleryModel
import GalleryStore

extension Maintenance {
    /// `galleryssg rekey ALBUM`: forgets a protected album's content key, so the next build makes a
    /// new one and encrypts every file of the album again (under new names). Whoever kept the old key
    /// (a reader's "remember on this device") can no longer open the new files.
    /// - Parameter album: The album's path as its source writes it (`Family`, `2024/Wedding`).
    /// - Returns: Whether the album had a key (false: it was never built protected, or is already new).
    /// - Throws: `StoreError` when a build holds the state, `AlbumKeyStoreError` for an unreadable store.
    public static func rekey(_ config: SiteConfig, album: String) throws -> Bool {
        let lock = try BuildLock.acquire(stateDirectory: config.stateDirectory, purpose: "rekey")
        defer { lock.release() }
        var store = try AlbumKeyStore.load(stateDirectory: config.stateDirectory)
        guard let path = AlbumPath.normalized(album), store.entries[path] != nil else { return false }
        store.entries[path] = nil
        try store.save()
        return true
    }

    /// `galleryssg rekey --site`: the same for a site with a password; every file is encrypted again.
    /// - Returns: Whether the site had a key.
    public static func rekeySite(_ config: SiteConfig) throws -> Bool {
        let lock = try BuildLock.acquire(stateDirectory: config.stateDirectory, purpose: "rekey")
        defer { lock.release() }
        var store = try AlbumKeyStore.load(stateDirectory: config.stateDirectory)
        guard store.entries[ProtectedSite.storeName] != nil else { return false }
        store.entries[ProtectedSite.storeName] = nil
        try store.save()
        return true
    }

    /// The protected albums the state holds keys for, by path.
    public static func protectedAlbums(_ config: SiteConfig) throws -> [String] {
        try AlbumKeyStore.load(stateDirectory: config.stateDirectory).entries.keys.filter {
            $0 != ProtectedSite.storeName
        }.sorted()
    }
}
