import Foundation
import GalleryModel
import GalleryPipeline
import GalleryRender
import Testing

/// The search index: album names are searchable, and a large index is split so one query loads little.
@Suite("Search index shards")
struct SearchShardsTests {
    /// What a query for `query` loads from a sharded index, worked out as `search.js` does it
    /// (an independent reading of the published files), and the photos it finds.
    struct QueryLoad {
        var bytes: Int
        var files: [String]
        var count: Int
        var urls: [String]
    }

    /// The files of a sharded index by path, and its manifest.
    struct Published {
        var files: [String: Data]
        var manifest: [String: Any]

        init(_ shards: SearchShards) throws {
            files = Dictionary(uniqueKeysWithValues: (shards.files + [shards.manifest]).map { ($0.path, $0.contents) })
            let text = String(decoding: shards.manifest.contents, as: UTF8.self)
            let prefix = "window.gallerySearchIndex = "
            #expect(text.hasPrefix(prefix))
            let json = text.dropFirst(prefix.count).trimmingCharacters(in: .whitespacesAndNewlines).dropLast()
            let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
            manifest = try #require(object?["sharded"] as? [String: Any])
        }

        /// The JSON inside a `gallerySearchData("key", …);` file.
        func payload(_ path: String) throws -> Any {
            let text = String(decoding: try #require(files[path]), as: UTF8.self)
            let start = try #require(text.firstIndex(of: ","))
            let body = text[text.index(after: start)...].trimmingCharacters(in: .whitespacesAndNewlines).dropLast(2)
            return try JSONSerialization.jsonObject(with: Data(body.utf8))
        }

        func query(_ query: String) throws -> QueryLoad {
            let folder = try #require(manifest["folder"] as? String)
            let count = try #require(manifest["count"] as? Int)
            let chunk = try #require(manifest["chunk"] as? Int)
            let first = try #require(manifest["shards"] as? [String])
            var loaded = ["search-index.js"]
            var hits = [Int](repeating: 0, count: count)
            let terms = SearchShards.words(query)
            for term in terms {
                var shard = first.lastIndex { !SearchShards.utf16Order(term, $0) } ?? 0
                var keys = [shard]
                while term.count >= 3, shard + 1 < first.count, first[shard + 1].hasPrefix(term) {
                    shard += 1
                    keys.append(shard)
                }
                var found = Set<Int>()
                for key in keys {
                    let path = folder + "t\(key).js"
                    if !loaded.contains(path) { loaded.append(path) }
                    let words = try #require(try payload(path) as? [String: String])
                    for (word, list) in words where term.count >= 3 ? word.hasPrefix(term) : word == term {
                        found.formUnion(Self.decode(list, count: count))
                    }
                }
                for id in found { hits[id] += 1 }
            }
            let ids = hits.indices.filter { hits[$0] == terms.count && !terms.isEmpty }
            var urls: [String] = []
            for id in ids.prefix(24) {
                let path = folder + "d\(id / chunk).js"
                if !loaded.contains(path) { loaded.append(path) }
                let rows = try #require(try payload(path) as? [[Any]])
                urls.append(try #require(rows[id % chunk][1] as? String))
            }
            return QueryLoad(
                bytes: loaded.reduce(0) { $0 + (files[$1]?.count ?? 0) }, files: loaded, count: ids.count, urls: urls)
        }

        static func decode(_ list: String, count: Int) -> [Int] {
            if list.hasPrefix("~") {
                let bytes = [UInt8](Data(base64Encoded: String(list.dropFirst())) ?? Data())
                return (0..<count).filter { bytes[$0 / 8] & (1 << UInt8($0 % 8)) != 0 }
            }
            var id = 0
            return list.split(separator: ",").map {
                id += Int($0, radix: 36) ?? 0
                return id
            }
        }
    }

    static let vocabulary = [
        "harbour", "mountain", "river", "sunset", "forest", "street", "market", "bridge", "garden",
        "castle", "beach", "winter", "summer", "autumn", "spring", "night", "morning", "cloud"
    ]

    /// A synthetic photo: two words of the vocabulary and a word of its own in the caption, one of
    /// 1,000 albums (one of them "Basque Country"), and a tag every photo has.
    static func entry(_ id: Int) -> SearchIndex.Entry {
        let album = id % 1000 == 7 ? "Spain / Basque Country" : "Album \(id % 1000)"
        return SearchIndex.Entry(
            title: "Photo \(id)",
            text:
                "A \(vocabulary[id % vocabulary.count]) by the \(vocabulary[(id / 7) % vocabulary.count]), frame q\(String(id, radix: 36))x",
            tags: ["everything"], author: "Author \(id % 50)", camera: nil, album: album,
            url: "photos/p\(id)/index.html", thumb: "photos/p\(id)/400x300.jpg", width: 400, height: 300)
    }

    @Test func wordsAreFoldedAsTheScriptFoldsThem() {
        #expect(SearchShards.words("Café  ÉTÉ-basque, 2024!") == ["cafe", "ete", "basque", "2024"])
        #expect(SearchShards.words("São Paulo / 東京") == ["sao", "paulo", "東京"])
        #expect(SearchShards.words(String(repeating: "a", count: 60)) == [String(repeating: "a", count: 40)])
    }

    @Test func photoListsAreDeltasOrABitmapWhicheverIsShorter() {
        #expect(SearchShards.encode([3, 4, 14], count: 1000) == "3,1,a")
        let dense = Array(stride(from: 0, to: 1000, by: 2))
        let encoded = SearchShards.encode(dense, count: 1000)
        #expect(encoded.hasPrefix("~"))
        #expect(Published.decode(encoded, count: 1000) == dense)
        #expect(Published.decode(SearchShards.encode([0, 35, 36, 999], count: 1000), count: 1000) == [0, 35, 36, 999])
    }

    @Test func aQueryOnAHundredThousandPhotosLoadsAtMost300KB() throws {
        let count = 100_000
        let entries = (0..<count).map(Self.entry)
        let published = try Published(try SearchShards(entries))
        #expect(published.manifest["count"] as? Int == count)
        // Every file is small; the index as one file would be many megabytes.
        #expect(published.files.values.allSatisfy { $0.count <= 64 * 1024 })

        // A word of one photo's caption finds exactly that photo.
        let rare = try published.query("q\(String(41_234, radix: 36))x")
        #expect(rare.urls == ["photos/p41234/index.html"] && rare.count == 1)
        #expect(rare.bytes <= 300 * 1024, "\(rare.files)")

        // The album name finds every photo of the album (100 of them), in the site's order.
        let album = try published.query("basque")
        let expected = (0..<count).filter { $0 % 1000 == 7 }
        #expect(album.count == expected.count)
        #expect(album.urls == expected.prefix(24).map { "photos/p\($0)/index.html" })
        #expect(album.bytes <= 300 * 1024, "\(album.bytes) bytes: \(album.files)")

        // Two words, one of them in every photo, and a word start.
        let common = try published.query("everything harb")
        let harbour = (0..<count).filter { $0 % Self.vocabulary.count == 0 || ($0 / 7) % Self.vocabulary.count == 0 }
        #expect(common.count == harbour.count)
        #expect(common.urls == harbour.prefix(24).map { "photos/p\($0)/index.html" })
        #expect(common.bytes <= 300 * 1024, "\(common.bytes) bytes: \(common.files)")
    }

    @Test func albumNamesAreSearchableAndASmallSiteKeepsOneFile() async throws {
        let entries: [[String: Any]] = (1...6).map { number in
            [
                "id": "p\(number)", "title": "Photo \(number)", "image": "photos/photo-\(number).jpg",
                "album": number <= 5 ? "Spain/Basque Country" : "Elsewhere"
            ]
        }
        let site = try FixtureSite.make(entries: entries)
        _ = try await site.build()
        let index = try JSONSerialization.jsonObject(
            with: Data(contentsOf: site.output.appendingPathComponent("search.json")))
        let photos = try #require((index as? [String: Any])?["photos"] as? [[String: Any]])
        let basque = photos.filter { ($0["album"] as? String)?.contains("Basque Country") == true }
        #expect(basque.count == 5)
        #expect(basque.allSatisfy { $0["album"] as? String == "Spain / Basque Country" })
        #expect(try site.read("search-index.js").contains(try site.read("search.json")))
        #expect(!site.outputFiles().contains { $0.hasPrefix("search/") })
    }
}
