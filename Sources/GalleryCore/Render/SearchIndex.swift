import Foundation

/// The static search index: one entry per photo, over title, description, tags, author and camera.
///
/// It is published twice from the same JSON bytes: `search.json` for tools and hosts, and
/// `search-index.js` (the JSON behind one assignment), which the theme's script loads with a
/// `<script>` element so that search also works from `file://`, where `fetch` is not allowed.
struct SearchIndex {
    struct Entry: Encodable {
        var title: String
        var text: String?
        var tags: [String]?
        var author: String?
        var camera: String?
        /// Photo page, relative to the site root.
        var url: String
        /// Grid thumbnail, relative to the site root, and its size.
        var thumb: String
        var width: Int
        var height: Int
    }

    var entries: [Entry]

    init(items: [GalleryItem]) {
        entries = items.map { item in
            let photo = item.photo
            return Entry(title: photo.title ?? item.altText,
                         text: photo.description.map { Markdown.plainText($0, limit: 300) },
                         tags: photo.tags.isEmpty ? nil : photo.tags, author: photo.author,
                         camera: Formatting.camera(photo.camera), url: item.pagePath, thumb: item.plan.thumbnail.path,
                         width: item.plan.thumbnail.size.width, height: item.plan.thumbnail.size.height)
        }
    }

    /// The index as JSON, with sorted keys so rebuilds are byte-identical.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(["photos": entries])
    }

    /// The index as a script: `window.gallerySearchIndex = {…};`.
    func script() throws -> Data {
        var data = Data("window.gallerySearchIndex = ".utf8)
        data.append(try json())
        data.append(Data(";\n".utf8))
        return data
    }
}
