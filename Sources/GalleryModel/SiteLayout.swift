import Foundation

/// Where every page and file of the published site lives, and how a page links to the root.
///
/// The one statement of the site's URL layout: the renderer, the images step, the deploy code and
/// the preview server all name paths through it. Paths are relative to the site root.
public enum SiteLayout {
    /// The first page of the home grid.
    public static let home = "index.html"
    package static let albums = "albums/index.html"
    package static let tags = "tags/index.html"
    package static let notFound = "404.html"
    package static let feed = "feed.xml"
    package static let sitemap = "sitemap.xml"
    package static let map = "map/index.html"
    /// The map's photo data, loaded by its script.
    package static let mapData = "map/photos.js"
    /// The script pages load the search index (or, sharded, its manifest) from.
    package static let searchScript = "search-index.js"
    /// The Netlify / Cloudflare Pages headers file (caching rules), which a deploy also reads.
    package static let headers = "_headers"
    /// The service worker that decrypts protected albums, at the root so that its scope is the whole site.
    package static let serviceWorker = "galleryssg-sw.js"
    /// A protected page's encrypted content, beside the shell published at its path.
    package static let sealedPage = "page.bin"
    /// The file a folder's URL serves.
    public static let folderIndex = "index.html"

    /// The folder of a photo's page and its images: `photos/ID`.
    package static func photoFolder(id: String) -> String { "photos/\(id)" }

    /// A video's web file (H.264 and AAC in MP4), beside its poster's derivatives.
    package static func videoFile(id: String) -> String { "\(photoFolder(id: id))/video.mp4" }

    /// A Live Photo's motion (its clip, silent), beside its still's derivatives; an animation kept
    /// as it is (`AnimationMotion.kept`) has its own extension.
    package static func motionFile(id: String, fileExtension: String = "mp4") -> String {
        "\(photoFolder(id: id))/motion.\(fileExtension)"
    }

    /// A photo's page: `photos/ID/index.html`.
    package static func photoPage(id: String) -> String { "\(photoFolder(id: id))/\(folderIndex)" }

    /// Page `page` (1-based) of a paged listing whose first page is `folder/index.html`: the home
    /// grid (`folder` empty), an album (`albums/a/b`) or a tag (`tags/kites`).
    package static func listing(_ folder: String, page: Int) -> String {
        let base = folder.isEmpty ? "" : folder + "/"
        return page == 1 ? base + folderIndex : base + "page/\(page)/\(folderIndex)"
    }

    /// An album's folder: `albums/` and its slugs.
    package static func album(_ slugPath: String) -> String { "albums/\(slugPath)" }

    /// A tag's folder: `tags/SLUG`.
    package static func tag(_ slug: String) -> String { "tags/\(slug)" }

    /// The search index version's folder: `search/VERSION/`.
    package static func search(version: String) -> String { "search/\(version)/" }

    /// The link from a page at `path` to the site root: `""`, `"../"`, `"../../"`…
    package static func root(of path: String) -> String { root(depth: path.split(separator: "/").count - 1) }

    /// The link to the site root from a page `depth` folders down.
    package static func root(depth: Int) -> String { String(repeating: "../", count: depth) }

    /// The link to the site root from a photo's page.
    package static let photoPageRoot = root(of: photoPage(id: "id"))
}
