import Foundation
import GalleryConfig
import GalleryModel
import GalleryRender

/// `galleryssg init`: a new site folder with a working config, an empty photos folder, an example
/// source block for every source type, and the default templates to customise.
///
/// The config names a copy of its JSON Schema beside it (`"$schema"`), so that editors complete and
/// check it without any setting; `galleryssg schema` prints the current one.
public enum SiteScaffold {
    /// The files `init` writes, relative to the site folder, with their contents.
    package static var files: [(path: String, data: Data)] {
        var files: [(String, Data)] = [
            (SiteConfig.Defaults.fileName, Data(config.utf8)),
            ("site-config.schema.json", Data((SiteConfigSchema.json + "\n").utf8)),
            ("source-examples.json", Data(sourceExamples.utf8)),
            ("photos/README.txt", Data(photosReadme.utf8)),
            (".gitignore", Data("public/\n.galleryssg/\n".utf8))
        ]
        for (path, data) in DefaultTheme.files.sorted(by: { $0.key < $1.key }) {
            files.append(("templates/\(path)", data))
        }
        return files
    }

    /// Writes the scaffold into `folder` (created if needed) and returns the paths written.
    /// - Throws: `ScaffoldError` naming every file that already exists, unless `force` is set.
    public static func write(into folder: URL, force: Bool) throws -> [String] {
        let existing = files.map(\.path).filter {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        }
        if !force && !existing.isEmpty {
            throw ScaffoldError(
                .filesExist,
                "\(folder.path) already has \(existing.joined(separator: ", ")); "
                    + "nothing was written (use --force to overwrite these files)")
        }
        for (path, data) in files {
            let target = folder.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try data.write(to: target, options: .atomic)
            } catch {
                throw ScaffoldError(.writeFailed, "\(target.path): could not write: \(error.localizedDescription)")
            }
        }
        return files.map(\.path)
    }

    package static let config = """
        {
          "$schema": "./site-config.schema.json",
          "title": "My photos",
          "description": "Photos by me. Edit site-config.json to change this text.",
          "output": "public",
          "templates": "templates",
          "pageSize": 24,
          "source": { "type": "folder", "path": "photos" },
          "images": { "thumbnail": 400, "preview": 1600, "widths": [480, 800, 1200], "quality": 82 }
        }

        """

    static let sourceExamples = """
        {
          "about": "One example of \\"source\\" for each source type. Copy one into site-config.json in place of its \\"source\\". Keys come from the environment through ${NAME}; see the README.",
          "folder": { "type": "folder", "path": "photos" },
          "manifest": { "type": "manifest", "path": "photos.json" },
          "manifestURL": { "type": "manifest", "url": "https://example.com/gallery/photos.json" },
          "flickr": { "type": "flickr", "apiKey": "${FLICKR_API_KEY}", "method": "flickr.photos.search",
                      "params": { "tags": "lighthouse", "sort": "interestingness-desc", "license": "4,5,9,10" }, "limit": 200 },
          "flickrFeed": { "type": "flickr", "method": "feed", "params": { "tags": "cats,snow", "tagmode": "all" } },
          "500px": { "type": "500px", "consumerKey": "${PX500_CONSUMER_KEY}", "feature": "popular",
                     "endpoint": "https://api.500px.com/v1", "limit": 100 },
          "parse": { "type": "parse", "endpoint": "https://parse.example.com/parse", "className": "Resource",
                     "applicationId": "${PARSE_APP_ID}", "restApiKey": "${PARSE_REST_KEY}",
                     "columns": { "title": "filename", "image": "fileURLString", "thumbnail": "thumbnailURLString" } },
          "immich": { "type": "immich", "url": "https://photos.example.com", "apiKeyEnv": "IMMICH_API_KEY",
                      "albums": ["Holidays 2024"] }
        }

        """

    static let photosReadme = """
        Put your photos in this folder: JPEG, HEIC/HEIF, AVIF, WebP, PNG, TIFF, GIF or MPO.
        Each subfolder becomes an album, and folders inside it become albums inside that album; an
        index.md in a folder gives its album a title, a description, a cover and an order.
        Titles, captions, keywords and credits are read from the files (XMP, IPTC, EXIF), from a
        NAME.xmp sidecar, or from a NAME.md file beside the photo (see the README).

        """
}

/// Why `init` wrote nothing, or stopped.
///
/// Callers that act on the problem switch on `kind`, never on the words.
package typealias ScaffoldError = KindedFailure<ScaffoldErrorKind>

/// What went wrong, for a `ScaffoldError`.
package enum ScaffoldErrorKind: Sendable, Equatable {
    /// Files the scaffold would write are there already; nothing was written (`--force` overwrites them).
    case filesExist
    /// A file of the scaffold could not be written; the words carry the system's reason.
    case writeFailed
}
