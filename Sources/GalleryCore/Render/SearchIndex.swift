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

    let items: [GalleryItem]

    init(items: [GalleryItem]) {
        self.items = items
    }

    func entry(_ item: GalleryItem) -> Entry {
        let photo = item.photo
        return Entry(title: photo.title ?? item.altText,
                     text: photo.description.map { Markdown.plainText($0, limit: 300) },
                     tags: photo.tags.isEmpty ? nil : photo.tags, author: photo.author,
                     camera: Formatting.camera(photo.camera), url: item.pagePath, thumb: item.plan.thumbnail.path,
                     width: item.plan.thumbnail.size.width, height: item.plan.thumbnail.size.height)
    }

    /// Entries encoded at once; the encoder builds a tree of the whole value before writing it,
    /// which for 100,000 photos in one go took over 100 MB.
    static let batchSize = 500

    /// The index as JSON, `{"photos":[…]}` with sorted keys, so rebuilds are byte-identical. The
    /// same bytes as encoding the whole index at once, made a batch of entries at a time.
    func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = Data(#"{"photos":["#.utf8)
        for start in stride(from: 0, to: items.count, by: Self.batchSize) {
            let batch = try encoder.encode(items[start..<min(start + Self.batchSize, items.count)].map(entry))
            if start > 0 { data.append(UInt8(ascii: ",")) }
            data.append(batch.dropFirst().dropLast())   // without the batch's own [ and ]
        }
        data.append(contentsOf: "]}".utf8)
        return data
    }

    /// The index as a script, `window.gallerySearchIndex = {…};`, around the JSON.
    static func script(json: Data) -> Data {
        var data = Data("window.gallerySearchIndex = ".utf8)
        data.append(json)
        data.append(Data(";\n".utf8))
        return data
    }
}
