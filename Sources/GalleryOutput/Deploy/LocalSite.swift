import Crypto
import Foundation
import GalleryModel

/// The built site as a deploy sees it: every file with its digests, `Content-Type`, `Cache-Control`
/// and whether it is a page.
package enum LocalSite {
    /// `Cache-Control` for pages that `_headers` gives none: short, so a new deploy shows within a
    /// minute, and pages never outlive the images they show by long.
    package static let pageCacheControl = "public, max-age=60"

    /// Extensions of files that are pages, or refer to images the way pages do.
    static let pageExtensions: Set<String> = ["html", "htm", "xml", "json", "txt", "webmanifest"]
    /// Scripts under fixed names whose content lists photos (the search manifest, the map's data):
    /// they go with the pages, after the images and search shards they point at.
    static let pageScripts: Set<String> = [SiteLayout.searchScript, SiteLayout.mapData, SiteLayout.headers]

    /// Reads every file of `folder`.
    /// - Throws: `DeployError` when the folder or a file cannot be read.
    package static func scan(_ folder: URL) throws -> [LocalFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw DeployError.local(folder.path, "no built site here; run galleryssg build first")
        }
        let headersURL = folder.appendingPathComponent(SiteLayout.headers)
        let headers = HeadersFile((try? String(contentsOf: headersURL, encoding: .utf8)) ?? "")
        return try files(in: folder).map { key in
            let url = folder.appendingPathComponent(key)
            let data: Data
            do {
                data = try Data(contentsOf: url, options: .mappedIfSafe)
            } catch {
                throw DeployError.local(url.path, "cannot be read: \(error.localizedDescription)")
            }
            let page = isPage(key)
            return LocalFile(
                key: key, url: url, size: data.count, md5: SigV4.hex(Insecure.MD5.hash(data: data)),
                sha256: SigV4.hex(SHA256.hash(data: data)), contentType: contentType(key),
                cacheControl: headers.value("Cache-Control", for: key) ?? (page ? pageCacheControl : nil),
                isPage: page)
        }
    }

    /// Every regular file below `folder`, as sorted `/`-separated paths relative to it, but for the
    /// site's marker at its root (`SiteMarker.names`), which is never deployed.
    package static func files(in folder: URL) throws -> [String] {
        let root = folder.standardizedFileURL.path
        guard let walker = FileManager.default.enumerator(atPath: root) else {
            throw DeployError.local(root, "cannot be listed")
        }
        var files: [String] = []
        while let path = walker.nextObject() as? String {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                !SiteMarker.names.contains(path)
            {
                files.append(path)
            }
        }
        return files.sorted()
    }

    package static func isPage(_ key: String) -> Bool {
        pageScripts.contains(key) || pageExtensions.contains(fileExtension(key))
    }

    /// The `Content-Type` for a path, from its extension; text types say UTF-8, which the build writes.
    package static func contentType(_ key: String) -> String {
        if key == SiteLayout.headers { return "text/plain; charset=utf-8" }
        guard let type = MediaTypes.byExtension[fileExtension(key)] else { return MediaTypes.unknown }
        return type.hasPrefix("text/") ? type + "; charset=utf-8" : type
    }

    private static func fileExtension(_ key: String) -> String {
        let name = key.split(separator: "/").last.map(String.init) ?? key
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...].lowercased()
    }
}
