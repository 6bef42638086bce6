import Foundation
import GalleryModel
import GalleryOutput
import GalleryRender
import GalleryVault

/// Encrypts protected albums in the staged site, once every page and file of it is staged: the
/// last change a build makes to the files before they are published.
///
/// For each album, every file this build staged under its folder (`albums/…/TOKEN/`) and its photos'
/// folders (`photos/TOKEN-…/`) is replaced:
/// - a file that is not a page is encrypted under an opaque name (`ContentKey.opaqueName`, with its
///   extension), so its name no longer tells its size or role;
/// - a page has those names put in for the old ones, is encrypted into `page.bin` beside it, and
///   its path gets the album's shell page (`SiteRenderer.protectedShell`).
/// Encryption is deterministic (`GalleryVault`), so an unchanged album is staged byte for byte as before.
struct AlbumSealer {
    let writer: StagedWriter
    let renderer: SiteRenderer
    let cache: SealCache
    /// Puts other paths into the shell pages: those of a site with a password (`SitePathMap.rewrite`).
    var rewrite: (String) -> String = { $0 }

    struct Target {
        var album: ProtectedAlbum
        /// The album's folder from the site root, `albums/trips/TOKEN`.
        var folder: String
        /// The prefix of its photos' folders, `photos/TOKEN-` (under a site password, its opaque folder's).
        var photos: String

        init(album: ProtectedAlbum, folder: String) {
            self.album = album
            self.folder = folder
            photos = album.photoPrefix
        }
    }

    struct Outcome {
        var files = 0
        var bytes = 0
        /// Encrypted files and shells made this build, and those taken from the cache as an earlier build made them.
        var made = 0
        var reused = 0
    }

    func seal(_ targets: [Target]) throws -> Outcome {
        var outcome = Outcome()
        var listing: [String: [String]] = [:]
        for target in targets { try seal(target, listing: &listing, outcome: &outcome) }
        return outcome
    }

    private func seal(_ target: Target, listing: inout [String: [String]], outcome: inout Outcome) throws {
        let key = target.album.key
        let staged = stagedFiles(under: target.folder) + stagedPhotoFiles(prefix: target.photos, listing: &listing)
        let pages = staged.filter { SitePage.isHTML(path: $0) }
        var renamed: [String: String] = [:]
        for path in staged where !SitePage.isHTML(path: path) {
            let folder = StagedWriter.parent(of: path)
            let ext = (path as NSString).pathExtension.lowercased()
            renamed[path] = folder + "/" + key.opaqueName(for: path) + (ext.isEmpty ? "" : "." + ext)
        }
        for (path, name) in renamed.sorted(by: { $0.key < $1.key }) {
            let staged = URL(fileURLWithPath: writer.stagingPath + "/" + path)
            outcome.bytes += try cache.place(cache.key(key, target: name, source: path), at: name) {
                try key.encryptFile(at: staged, to: URL(fileURLWithPath: $0), path: name)
            }
            try writer.remove(path)
            outcome.files += 1
        }
        let names = try Self.referencePattern(folder: target.folder, photos: target.photos)
        let keyFile = String(decoding: target.album.keyFile.json(), as: UTF8.self)
        for path in pages {
            let sealedPath = StagedWriter.parent(of: path) + "/" + SiteLayout.sealedPage
            outcome.bytes += try cache.place(cache.key(key, target: sealedPath, source: path), at: sealedPath) {
                let html = try String(contentsOfFile: writer.stagingPath + "/" + path, encoding: .utf8)
                try Data(try key.encrypt(Data(Self.rename(html, names, renamed).utf8), path: sealedPath)).write(
                    to: URL(fileURLWithPath: $0))
            }
            let shellKey = cache.key(
                key, target: path, source: nil,
                ["shell", renderer.settingsKey.hex, keyFile, target.folder, target.photos])
            try cache.place(shellKey, at: path) {
                let shell = try renderer.protectedShell(
                    path: path, keyFile: keyFile, folder: target.folder + "/", photos: target.photos)
                try Data(rewrite(String(decoding: shell, as: UTF8.self)).utf8).write(to: URL(fileURLWithPath: $0))
            }
            outcome.files += 1
        }
    }

    /// Site paths of the files this build staged under a folder.
    private func stagedFiles(under folder: String) -> [String] {
        let root = writer.stagingPath + "/" + folder
        var files: [String] = []
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            let path = folder + "/" + relative
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder),
                !isFolder.boolValue
            else { continue }
            if writer.wasWritten(path) { files.append(path) }
        }
        return files.sorted()
    }

    /// Site paths of the files this build staged in the photo folders whose path starts with `prefix`.
    private func stagedPhotoFiles(prefix: String, listing: inout [String: [String]]) -> [String] {
        let parent = StagedWriter.parent(of: prefix)
        let start = String(prefix.dropFirst(parent.count + 1))
        if listing[parent] == nil {  // listed once for every album: it holds a folder per photo of the site
            listing[parent] =
                ((try? FileManager.default.contentsOfDirectory(atPath: writer.stagingPath + "/" + parent)) ?? [])
                .sorted()
        }
        return listing[parent]!.filter { $0.hasPrefix(start) }.flatMap { stagedFiles(under: parent + "/" + $0) }
    }

    /// Finds the album's file paths in a page, however the page links them (`../../photos/…`, an absolute URL).
    static func referencePattern(folder: String, photos: String) throws -> NSRegularExpression {
        try NSRegularExpression(
            pattern: "(?:\(NSRegularExpression.escapedPattern(for: folder))/|"
                + "\(NSRegularExpression.escapedPattern(for: photos)))[A-Za-z0-9._/-]+")
    }

    /// The page with each renamed file's new path put in for its old one.
    static func rename(_ html: String, _ pattern: NSRegularExpression, _ renamed: [String: String]) -> String {
        let text = html as NSString
        var result = ""
        var last = 0
        for match in pattern.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            guard let name = renamed[text.substring(with: match.range)] else { continue }
            result += text.substring(with: NSRange(location: last, length: match.range.location - last)) + name
            last = match.range.location + match.range.length
        }
        return result + text.substring(from: last)
    }
}

extension Build {
    /// Encrypts the protected albums (`AlbumSealer`) and, under a site password, the whole site
    /// (`SiteSealer`); publishes the service worker that decrypts them at the site root, and marks
    /// their files `Cache-Control: private` in `_headers`.
    /// - Returns: What was encrypted, and under a site password where each file went.
    func sealProtected(
        _ targets: [AlbumSealer.Target], site: ProtectedSite?, writer: StagedWriter, renderer: SiteRenderer,
        assets: Assets
    ) throws -> (AlbumSealer.Outcome, SitePathMap?) {
        try writer.stage()  // sealing rewrites and moves staged files: the published site is never kept
        defer { try? FileManager.default.removeItem(atPath: writer.stagingPath + ".sealing") }
        let cache = SealCache(writer: writer, cache: config.cacheDirectory, reuse: !options.rebuild)
        var outcome = AlbumSealer.Outcome()
        var targets = targets
        var sitePlan: (sealer: SiteSealer, map: SitePathMap, files: [String])?
        if let site {
            let sealer = SiteSealer(writer: writer, renderer: renderer, site: site, cache: cache)
            let (map, files, moved) = sealer.plan(targets)
            try sealer.moveAlbumFiles(files, map)
            (sitePlan, targets) = ((sealer, map, files), moved)
        }
        var albums = AlbumSealer(writer: writer, renderer: renderer, cache: cache)
        if let map = sitePlan?.map { albums.rewrite = map.rewrite }
        outcome = try albums.seal(targets)
        if let (sealer, map, files) = sitePlan {
            let except =
                [SitePathMap.publicFolder] + SitePathMap.publicFiles + targets.flatMap { [$0.folder + "/", $0.photos] }
            try sealer.seal(files, map, except: except, outcome: &outcome)
        }
        guard assets.serviceWorker != nil else {  // `stageStatic` published it
            throw BuildError(step: .seal, "the theme has no static/protect-sw.js, which opens protected albums")
        }
        var headers = assets.headersFile
        var privateFolders = targets.flatMap { ["/\($0.folder)/*", "/\($0.photos)*"] }
        if let (_, map, files) = sitePlan {
            privateFolders +=
                Set(
                    files.compactMap { path in
                        let mapped = map.files[path]!
                        let top = mapped.split(separator: "/").first.map(String.init) ?? mapped
                        return mapped.contains("/") ? "/\(top)/*" : "/\(mapped)"
                    }) + ["/", "/\(SiteLayout.sealedPage)"]
        }
        for rule in Set(privateFolders).sorted() { headers += "\n\(rule)\n  Cache-Control: private\n" }
        try writer.write(Data(headers.utf8), to: SiteLayout.headers)
        cache.prune()
        (outcome.made, outcome.reused) = (cache.made, cache.reused)
        return (outcome, sitePlan?.map)
    }
}
