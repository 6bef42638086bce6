import Foundation
import GalleryKeys
import GalleryModel
import GalleryOutput
import GalleryRender
import GalleryStore

/// The `downloads` step: one zip per album whose `download` is `album`, of the album's own photos'
/// download files (`GalleryItem.downloadPath`: the published original, else the largest derivative,
/// so nothing goes in that the site does not already publish, GPS-free), beside the album's page.
///
/// A zip is cached like a derivative, under a key made of its entries' names and their files' cache
/// keys, in the cache's `zips` folder, and hard-linked into the staging folder: an album whose
/// files did not change is not zipped again, and a no-op build finds the site already linking it.
/// Runs after `images` (the files must be staged) and before `pages` (album pages show the size).
package struct AlbumZips: Sendable {
    package let writer: StagedWriter
    package let store: BlobStore
    /// False (`build --rebuild`) zips every album again.
    package let reuse: Bool

    package init(writer: StagedWriter, cache: URL, reuse: Bool) {
        self.writer = writer
        store = BlobStore(folder: Self.folder(cache: cache), kind: "zips")
        self.reuse = reuse
    }

    /// Where the zips are cached inside the cache folder.
    package static func folder(cache: URL) -> URL { cache.appendingPathComponent("zips") }

    /// Bump when the zips' layout changes (entry dates, names, order), so cached zips are made again.
    static let formatVersion = 1

    package struct Outcome: Sendable {
        /// Album index → its zip, for `SitePlan.adding(downloads:)`.
        package var downloads: [Int: AlbumDownload] = [:]
        package var made = 0
        package var reused = 0
        /// Bytes of the zips made this build.
        var bytesMade: Int64 = 0
    }

    /// Zips (or links from the cache) every album of `plan` that offers one, and removes cached
    /// zips no album uses any more.
    /// - Throws: `OutputError` or `StoreError` naming the file.
    package func publish(_ plan: SitePlan) throws -> Outcome {
        var outcome = Outcome()
        var used = Set<String>()
        let tree = plan.sections.albums
        for (index, album) in tree.albums.enumerated() where album.zipped {
            let items = try album.members.map { try plan.items[$0] }
            let names = DownloadName.unique(items.map(DownloadName.of))
            let members = try zip(names, items).map { name, item in
                AlbumZipWriter.Member(name: name, path: try writer.readable(item.downloadPath))
            }
            let key = try Self.key(members, items: items)
            let cached = store.path(key)
            used.insert(key.hex)
            if reuse, FileStamp.of(cached) != nil {
                outcome.reused += 1
            } else {
                let scratch = try store.scratchPath(for: key)
                let bytes = try AlbumZipWriter.write(members, to: scratch)
                guard rename(scratch, cached) == 0 else {
                    unlink(scratch)
                    throw StoreError(.writeFailed, "\(cached): the album's zip could not be moved into the cache")
                }
                outcome.made += 1
                outcome.bytesMade += bytes
            }
            guard let stamp = FileStamp.of(cached) else {
                throw StoreError(.missingFile, "\(cached): cached zip vanished during the build")
            }
            let path = Self.sitePath(of: album)
            try writer.link(BlobFile(path: cached, identity: stamp.identity), to: path)
            outcome.downloads[index] = AlbumDownload(path: path, count: members.count, bytes: Int64(stamp.size))
        }
        prune(keeping: used)
        return outcome
    }

    /// `albums/2024/iceland/iceland.zip`: beside the album's first page, named by its slug (slugs
    /// hold no dot, so the name never meets a sub-album's folder).
    static func sitePath(of album: AlbumTree.Album) -> String {
        let slug = album.slugPath.split(separator: "/").last.map(String.init) ?? "album"
        return SiteLayout.album(album.slugPath) + "/\(slug).zip"
    }

    /// The zip's cache key: its entries' names and their files' cache keys, in order. A file whose
    /// key is unknown is keyed by its size, time and inode (a cached blob is never changed in place).
    static func key(_ members: [AlbumZipWriter.Member], items: [GalleryItem]) throws -> Digest {
        var key = CacheKey("album zip")
        key.add(formatVersion)
        for (member, item) in zip(members, items) {
            key.add(member.name)
            if let blob = item.downloadKey {
                key.add(blob)
            } else {
                guard let stamp = FileStamp.of(member.path) else {
                    throw StoreError(.missingFile, "\(member.path): not staged for the album's zip")
                }
                key.add("\(stamp.size) \(stamp.modified) \(stamp.identity.device) \(stamp.identity.inode)")
            }
        }
        return key.finish()
    }

    /// Removes cached zips this build did not use (their albums changed, or went); the build holds
    /// the state lock, so no other build of this site is using them. Files being written are kept.
    private func prune(keeping used: Set<String>) {
        let root = store.folder.path
        for sub in (try? FileManager.default.contentsOfDirectory(atPath: root)) ?? [] {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: "\(root)/\(sub)")) ?? []
            where !used.contains(name) && !name.contains(".tmp-") {
                unlink("\(root)/\(sub)/\(name)")
            }
        }
    }
}
