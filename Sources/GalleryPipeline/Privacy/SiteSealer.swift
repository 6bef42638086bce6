import Foundation
import GalleryKeys
import GalleryModel
import GalleryOutput
import GalleryRender
import GalleryVault

/// Encrypts a site with a password once every file of it is staged: each file this build staged
/// moves to its opaque path (`SitePathMap`), pages and data files get the new paths put in, and
/// everything but the public files is encrypted under the site's key as `AlbumSealer` does for an
/// album (a page becomes `page.bin` beside the shell that asks for the password). A protected
/// album's files are only moved and rewritten here; `AlbumSealer` encrypts them under their own key.
struct SiteSealer {
    let writer: StagedWriter
    let renderer: SiteRenderer
    let site: ProtectedSite
    let cache: SealCache

    /// The map of every file this build staged, and the album targets at their new folders.
    func plan(_ targets: [AlbumSealer.Target]) -> (map: SitePathMap, files: [String], targets: [AlbumSealer.Target]) {
        var map = SitePathMap(key: site.key, albumFolders: targets.map(\.folder), photoPrefixes: targets.map(\.photos))
        let files = stagedFiles().filter { !SitePathMap.isPublic($0) }
        for path in files { map.add(path) }
        let moved = targets.map { target in
            var target = target
            target.folder = map.map(folder: target.folder)
            let parent = StagedWriter.parent(of: target.photos)
            target.photos = map.map(folder: parent) + "/" + String(target.photos.dropFirst(parent.count + 1))
            return target
        }
        return (map, files, moved)
    }

    /// Moves the protected albums' files to their new folders, with the new paths put into their
    /// pages, before `AlbumSealer` encrypts them.
    func moveAlbumFiles(_ files: [String], _ map: SitePathMap) throws {
        for path in files where map.isAlbum(path) {
            var outcome = AlbumSealer.Outcome()
            try stage(path, as: map.files[path]!, map, encrypted: false, outcome: &outcome)
        }
    }

    /// Encrypts every other file at its new path, and puts the new paths into the public `404.html`.
    func seal(_ files: [String], _ map: SitePathMap, except: [String], outcome: inout AlbumSealer.Outcome) throws {
        let keyFile = String(decoding: site.keyFile.json(), as: UTF8.self)
        let exceptions = String(decoding: try JSONEncoder().encode(except), as: UTF8.self)
        for path in files where !map.isAlbum(path) {
            let target = map.files[path]!
            if SitePage.isHTML(path: path) {
                let folder = StagedWriter.parent(of: target)
                let sealedPath = (folder.isEmpty ? "" : folder + "/") + SiteLayout.sealedPage
                let staged = writer.stagingPath + "/" + path
                outcome.bytes += try cache.place(cache.key(site.key, target: sealedPath, source: path), at: sealedPath)
                {
                    let html = map.rewrite(try String(contentsOfFile: staged, encoding: .utf8))
                    try Data(try site.key.encrypt(Data(html.utf8), path: sealedPath)).write(
                        to: URL(fileURLWithPath: $0))
                }
                if target != path { try writer.remove(path) }
                let shellKey = cache.key(
                    site.key, target: target, source: nil, ["shell", renderer.settingsKey.hex, keyFile, exceptions])
                try cache.place(shellKey, at: target) {
                    let shell = try renderer.protectedShell(
                        path: target, keyFile: keyFile, folder: "", photos: "", except: exceptions)
                    try Data(map.rewrite(String(decoding: shell, as: UTF8.self)).utf8).write(
                        to: URL(fileURLWithPath: $0))
                }
            } else {
                try stage(path, as: target, map, encrypted: true, outcome: &outcome)
            }
            outcome.files += 1
        }
        if writer.wasWritten(SiteLayout.notFound) {
            let page = writer.stagingPath + "/" + SiteLayout.notFound
            try writer.write(
                Data(map.rewrite(try String(contentsOfFile: page, encoding: .utf8)).utf8), to: SiteLayout.notFound)
        }
        removeEmptyFolders(files)
    }

    /// Puts the file at `path` at `target`, with new paths put in when it is text; encrypted (or
    /// taken from the cache as an earlier build encrypted it) when asked.
    private func stage(
        _ path: String, as target: String, _ map: SitePathMap, encrypted: Bool,
        outcome: inout AlbumSealer.Outcome
    ) throws {
        let staged = URL(fileURLWithPath: writer.stagingPath + "/" + path)
        let text = Self.textExtensions.contains((path as NSString).pathExtension.lowercased())
        /// The file to publish or encrypt: the staged one, or its rewritten copy in the scratch folder.
        func input() throws -> URL {
            guard text else { return staged }
            let original = try String(contentsOf: staged, encoding: .utf8)
            let rewritten = map.rewrite(original)
            guard rewritten != original else { return staged }
            let copy = try scratchFile()
            try Data(rewritten.utf8).write(to: copy)
            return copy
        }
        if encrypted {
            outcome.bytes += try cache.place(cache.key(site.key, target: target, source: path), at: target) {
                let source = try input()
                defer { if source != staged { try? FileManager.default.removeItem(at: source) } }
                try site.key.encryptFile(at: source, to: URL(fileURLWithPath: $0), path: target)
            }
        } else {
            let source = try input()
            if source == staged && target == path { return }
            try writer.move(source, to: target)
        }
        if target != path { try writer.remove(path) }
    }

    private func scratchFile() throws -> URL {
        // Rewritten pages wait here in plaintext before they are encrypted: the owner's alone.
        let folder = writer.stagingPath + ".sealing"
        try PrivateFolder.make(URL(fileURLWithPath: folder))
        return URL(fileURLWithPath: folder + "/" + UUID().uuidString)
    }

    /// Files whose text names other files of the site.
    static let textExtensions: Set<String> = ["html", "js", "json", "xml", "css", "txt"]

    /// Every file this build staged, by site path.
    private func stagedFiles() -> [String] {
        var files: [String] = []
        let walker = FileManager.default.enumerator(atPath: writer.stagingPath)
        while let path = walker?.nextObject() as? String {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: writer.stagingPath + "/" + path, isDirectory: &isFolder),
                !isFolder.boolValue, writer.wasWritten(path)
            else { continue }
            files.append(path)
        }
        return files.sorted()
    }

    /// The folders the old paths leave empty: their names must not stay behind.
    private func removeEmptyFolders(_ files: [String]) {
        var folders = Set(files.map { StagedWriter.parent(of: $0) })
        folders.remove("")
        for folder in folders.sorted(by: { ($0.count, $0) > ($1.count, $1) }) {
            var current = folder
            while !current.isEmpty, rmdir(writer.stagingPath + "/" + current) == 0 {
                current = StagedWriter.parent(of: current)
            }
        }
    }
}
