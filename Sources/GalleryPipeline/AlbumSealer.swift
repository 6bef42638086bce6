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

    struct Target {
        var album: ProtectedAlbum
        /// The album's folder from the site root, `albums/trips/TOKEN`.
        var folder: String
    }

    struct Outcome {
        var files = 0
        var bytes = 0
    }

    func seal(_ targets: [Target]) throws -> Outcome {
        var outcome = Outcome()
        guard !targets.isEmpty else { return outcome }
        let scratch = URL(fileURLWithPath: writer.stagingPath + ".sealing")
        try? FileManager.default.removeItem(at: scratch)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for target in targets { try seal(target, scratch: scratch, outcome: &outcome) }
        return outcome
    }

    private func seal(_ target: Target, scratch: URL, outcome: inout Outcome) throws {
        let key = target.album.key
        let staged = stagedFiles(under: target.folder) + stagedPhotoFiles(prefix: target.album.photoPrefix)
        let pages = staged.filter { SitePage.isHTML(path: $0) }
        var renamed: [String: String] = [:]
        for path in staged where !SitePage.isHTML(path: path) {
            let folder = StagedWriter.parent(of: path), ext = (path as NSString).pathExtension.lowercased()
            renamed[path] = folder + "/" + key.opaqueName(for: path) + (ext.isEmpty ? "" : "." + ext)
        }
        for (path, name) in renamed.sorted(by: { $0.key < $1.key }) {
            let temporary = scratch.appendingPathComponent(UUID().uuidString)
            try key.encryptFile(at: URL(fileURLWithPath: writer.stagingPath + "/" + path), to: temporary, path: name)
            outcome.bytes += (try? FileManager.default.attributesOfItem(atPath: temporary.path)[.size] as? Int) ?? 0
            try writer.remove(path)
            try writer.move(temporary, to: name)
            outcome.files += 1
        }
        let names = try Self.referencePattern(folder: target.folder, photos: target.album.photoPrefix)
        let keyFile = String(decoding: target.album.keyFile.json(), as: UTF8.self)
        for path in pages {
            let html = try String(contentsOfFile: writer.stagingPath + "/" + path, encoding: .utf8)
            let sealedPath = StagedWriter.parent(of: path) + "/" + SiteLayout.sealedPage
            let sealed = try key.encrypt(Data(Self.rename(html, names, renamed).utf8), path: sealedPath)
            try writer.write(Data(sealed), to: sealedPath)
            try writer.write(try renderer.protectedShell(path: path, keyFile: keyFile, folder: target.folder + "/",
                                                         photos: target.album.photoPrefix), to: path)
            outcome.files += 1
            outcome.bytes += sealed.count
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
            guard FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            if writer.wasWritten(path) { files.append(path) }
        }
        return files.sorted()
    }

    /// Site paths of the files this build staged in the photo folders whose path starts with `prefix`.
    private func stagedPhotoFiles(prefix: String) -> [String] {
        let parent = StagedWriter.parent(of: prefix), start = String(prefix.dropFirst(parent.count + 1))
        let names = (try? FileManager.default.contentsOfDirectory(atPath: writer.stagingPath + "/" + parent)) ?? []
        return names.filter { $0.hasPrefix(start) }.sorted().flatMap { stagedFiles(under: parent + "/" + $0) }
    }

    /// Finds the album's file paths in a page, however the page links them (`../../photos/…`, an absolute URL).
    static func referencePattern(folder: String, photos: String) throws -> NSRegularExpression {
        try NSRegularExpression(pattern: "(?:\(NSRegularExpression.escapedPattern(for: folder))/|"
                                + "\(NSRegularExpression.escapedPattern(for: photos)))[A-Za-z0-9._/-]+")
    }

    /// The page with each renamed file's new path put in for its old one.
    static func rename(_ html: String, _ pattern: NSRegularExpression, _ renamed: [String: String]) -> String {
        let text = html as NSString
        var result = "", last = 0
        for match in pattern.matches(in: html, range: NSRange(location: 0, length: text.length)) {
            guard let name = renamed[text.substring(with: match.range)] else { continue }
            result += text.substring(with: NSRange(location: last, length: match.range.location - last)) + name
            last = match.range.location + match.range.length
        }
        return result + text.substring(from: last)
    }
}

extension Build {
    /// Encrypts the protected albums (`AlbumSealer`), publishes the service worker that decrypts
    /// them at the site root, and marks their files `Cache-Control: private` in `_headers`.
    func sealProtected(_ targets: [AlbumSealer.Target], writer: StagedWriter, renderer: SiteRenderer,
                       assets: Assets) throws -> AlbumSealer.Outcome {
        let outcome = try AlbumSealer(writer: writer, renderer: renderer).seal(targets)
        guard let worker = assets.published["static/protect-sw.js"].flatMap({ assets.files[$0] }) else {
            throw BuildError(step: .seal, "the theme has no static/protect-sw.js, which opens protected albums")
        }
        try writer.write(worker, to: SiteLayout.serviceWorker)
        var headers = assets.headersFile
        for target in targets.sorted(by: { $0.folder < $1.folder }) {
            headers += "\n/\(target.folder)/*\n  Cache-Control: private\n"
            headers += "\n/\(target.album.photoPrefix)*\n  Cache-Control: private\n"
        }
        headers += "\n/\(SiteLayout.serviceWorker)\n  Cache-Control: no-cache\n"
        try writer.write(Data(headers.utf8), to: "_headers")
        return outcome
    }
}
