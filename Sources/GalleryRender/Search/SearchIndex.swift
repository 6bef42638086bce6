import Foundation
import GalleryModel

/// The static search index: one entry per photo, over title, description, tags, author, camera and
/// album (the album's title and those of the albums above it).
///
/// It is published twice from the same JSON bytes: `search.json` for tools and hosts, and
/// `search-index.js` (the JSON behind one assignment), which the theme's script loads with a
/// `<script>` element so that search also works from `file://`, where `fetch` is not allowed.
package struct SearchIndex {
    package struct Entry: Encodable {
        package var title: String
        package var text: String?
        package var tags: [String]?
        package var author: String?
        package var camera: String?
        /// The titles of the photo's album and the albums above it, top first, joined by ` / `.
        package var album: String?
        /// Photo page, relative to the site root.
        package var url: String
        /// Grid thumbnail, relative to the site root, and its size.
        package var thumb: String
        package var width: Int
        package var height: Int

        /// Everything a query is matched against, in the order the script joins it.
        var searchText: String {
            [title, text ?? "", (tags ?? []).joined(separator: " "), author ?? "", camera ?? "", album ?? ""]
                .joined(separator: " ")
        }

        package init(
            title: String, text: String? = nil, tags: [String]? = nil, author: String? = nil, camera: String? = nil,
            album: String? = nil, url: String, thumb: String, width: Int, height: Int
        ) {
            self.title = title
            self.text = text
            self.tags = tags
            self.author = author
            self.camera = camera
            self.album = album
            self.url = url
            self.thumb = thumb
            self.width = width
            self.height = height
        }
    }

    package let items: ItemList
    /// Each item's album text (`Entry.album`), by item index.
    package let albums: [Int: String]
    /// The item indices the index lists, in order; nil for all of them.
    package let only: [Int]?

    /// - Parameter only: The items to list (those of listed albums), nil for all.
    package init(items: ItemList, albums: [Int: String] = [:], only: [Int]? = nil) {
        self.items = items
        self.albums = albums
        self.only = only
    }

    /// How many entries the index has.
    package var count: Int { only?.count ?? items.count }

    /// The `position`th entry of the index.
    package func entry(at position: Int) throws -> Entry { try entry(only.map { $0[position] } ?? position) }

    /// Each item's album titles from the top down, `Spain / Basque Country`, from the site's album tree.
    static func albumTitles(_ tree: AlbumTree) -> [Int: String] {
        var titles: [Int: String] = [:]
        var chains: [Int: String] = [:]
        func chain(_ album: Int) -> String {
            if let known = chains[album] { return known }
            let own = tree.albums[album].title
            let text = tree.albums[album].parent.map { chain($0) + " / " + own } ?? own
            chains[album] = text
            return text
        }
        for (item, album) in tree.albumOfItem { titles[item] = chain(album) }
        return titles
    }

    /// - Throws: `SpillFileError` when the item cannot be read back from the build's file.
    package func entry(_ index: Int) throws -> Entry {
        let item = try items[index]
        let photo = item.photo
        return Entry(
            title: photo.title ?? item.altText,
            text: photo.description.map { Markdown.plainText($0, limit: 300) },
            tags: photo.tags.isEmpty ? nil : photo.tags, author: photo.author,
            camera: Formatting.camera(photo.camera), album: albums[index], url: item.pagePath,
            thumb: item.plan.thumbnail.path,
            width: item.plan.thumbnail.size.width, height: item.plan.thumbnail.size.height)
    }

    /// Entries encoded at once; the encoder builds a tree of the whole value before writing it,
    /// which for 100,000 photos in one go took over 100 MB.
    package static let batchSize = 500

    /// The index as JSON, `{"photos":[…]}` with sorted keys, so rebuilds are byte-identical. The
    /// same bytes as encoding the whole index at once, made a batch of entries at a time.
    package func json() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var data = Data(#"{"photos":["#.utf8)
        for start in stride(from: 0, to: count, by: Self.batchSize) {
            let batch = try encoder.encode(try (start..<min(start + Self.batchSize, count)).map(entry(at:)))
            if start > 0 { data.append(UInt8(ascii: ",")) }
            data.append(batch.dropFirst().dropLast())  // without the batch's own [ and ]
        }
        data.append(contentsOf: "]}".utf8)
        return data
    }

    /// The published files: `search.json` (the whole index, for tools) and `search-index.js`, which
    /// the theme's script loads: the same JSON for a small site, the manifest of `SearchShards` (and
    /// its shards) once the JSON passes `SearchShards.singleFileLimit`.
    /// Each file is handed to `emit` as soon as it is made, so the whole index is gone before the
    /// shards are made.
    package func files(_ emit: (RenderedPage) throws -> Void) throws {
        do {  // the whole index goes with this scope
            let json = try json()
            try emit(RenderedPage(path: "search.json", contents: json))
            guard json.count > SearchShards.singleFileLimit else {
                return try emit(RenderedPage(path: SiteLayout.searchScript, contents: Self.script(json: json)))
            }
        }
        let shards = try SearchShards(count: count, entry: entry(at:))
        try emit(shards.manifest)
        try shards.files.forEach(emit)
    }

    /// The index as a script, `window.gallerySearchIndex = {…};`, around the JSON.
    package static func script(json: Data) -> Data {
        var data = Data("window.gallerySearchIndex = ".utf8)
        data.append(json)
        data.append(Data(";\n".utf8))
        return data
    }
}
