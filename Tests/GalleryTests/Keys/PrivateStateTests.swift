import Foundation
import GalleryKeys
import Testing

/// The state and the caches are the owner's alone: the state and cache folders 0700, the files that
/// hold keys, the site secret or captions 0600; the published site stays readable by the web server
/// (0644), though its files are hard links to the cache's. A state made by an earlier galleryssg
/// (0755 folders, 0644 files) is narrowed by the next build.
@Suite("Modes of the state and the caches")
struct PrivateStateTests {
    static func mode(_ url: URL) -> Int? {
        var info = stat()
        return stat(url.path, &info) == 0 ? Int(info.st_mode & 0o7777) : nil
    }

    static func privateFiles(_ state: URL) -> [URL] {
        ["state.sqlite", "album-keys.json", "site-secret", "lock"].map { state.appendingPathComponent($0) }
    }

    /// The database's write-ahead log, when SQLite left one: it takes the database's mode.
    static func logMode(_ state: URL) -> Int? { mode(state.appendingPathComponent("state.sqlite-wal")) }

    @Test func theStateAndCachesAreTheOwnersAlone() async throws {
        let site = try ProtectedAlbumTests.site()
        _ = try await site.build()
        let state = site.folder.appendingPathComponent(".galleryssg")
        let cache = state.appendingPathComponent("cache")
        #expect(Self.mode(state) == 0o700 && Self.mode(cache) == 0o700)
        for file in Self.privateFiles(state) { #expect(Self.mode(file) == 0o600, "\(file.lastPathComponent)") }
        #expect(Self.logMode(state) == nil || Self.logMode(state) == 0o600)

        // The published files, hard links to the cache's among them, are readable by everyone.
        let published = site.outputFiles()
        #expect(published.count > 20)
        let unreadable = published.filter { (Self.mode(site.output.appendingPathComponent($0)) ?? 0) & 0o044 != 0o044 }
        #expect(unreadable.isEmpty, "\(unreadable)")
        var info = stat()
        let linked = published.filter {
            stat(site.output.appendingPathComponent($0).path, &info) == 0 && info.st_nlink > 1
        }
        #expect(!linked.isEmpty, "some published files are the cache's")

        // An earlier galleryssg's modes are narrowed by the next build.
        for folder in [state, cache] { #expect(chmod(folder.path, 0o755) == 0) }
        for file in Self.privateFiles(state) where Self.mode(file) != nil { #expect(chmod(file.path, 0o644) == 0) }
        _ = try await site.build()
        #expect(Self.mode(state) == 0o700 && Self.mode(cache) == 0o700)
        for file in Self.privateFiles(state) { #expect(Self.mode(file) == 0o600, "\(file.lastPathComponent)") }
        #expect(Self.logMode(state) == nil || Self.logMode(state) == 0o600)
    }

    @Test func aPrivateFolderIsMadeWithItsParentsOrNarrowed() throws {
        let root = try Fixtures.temporaryFolder()
        let folder = root.appendingPathComponent("a/b/state")
        try PrivateFolder.make(folder)
        #expect(Self.mode(folder) == 0o700)
        #expect(chmod(folder.path, 0o775) == 0)
        try PrivateFolder.make(folder)
        #expect(Self.mode(folder) == 0o700)
        let file = folder.appendingPathComponent("keys")
        try Data("k".utf8).write(to: file)
        #expect(chmod(file.path, 0o664) == 0)
        try PrivateFolder.restrict(file.path, to: PrivateFolder.fileMode)
        #expect(Self.mode(file) == 0o600)
        try PrivateFolder.restrict(folder.appendingPathComponent("missing").path, to: PrivateFolder.fileMode)
    }
}
