import Crypto
import Foundation
import GalleryModel

/// The search index of a large site, split so that one query loads a few small files.
///
/// A small site's index is one file (`search-index.js`). Once that file would pass
/// `singleFileLimit`, the index is written as:
/// - term shards, `search/<version>/t<k>.js`: every word of the photos' text (folded as the script
///   folds it) with the photos it occurs in, sorted and cut into files of about `shardBytes`;
/// - document chunks, `search/<version>/d<k>.js`: title, page, thumbnail and size of
///   `documentsPerChunk` photos each, in the site's order, which a result list needs;
/// - `search-index.js`, the manifest: the folder, the photo count, the chunk size and each term
///   shard's first word, so the script knows which shard holds a word.
///
/// Each file is a script (`gallerySearchData("t3", …);`) so that it loads from `file://` too. A
/// word's photos are delta-coded base-36 ids, or a bitmap (`~` and base64) when that is shorter, so
/// a word found in every photo of 100,000 still costs 17 KB. `version` is a digest of the files,
/// so a browser never mixes shards of two builds.
package struct SearchShards {
    /// The single-file index's largest size; above it the index is split.
    static let singleFileLimit = 256 * 1024
    /// Target size of a term shard (a word with a longer list of photos gets a shard of its own).
    static let shardBytes = 24 * 1024
    static let documentsPerChunk = 32
    /// Words are cut to this many characters.
    static let maxWordLength = 40

    package let files: [RenderedPage]
    /// `search-index.js`: the manifest.
    package let manifest: RenderedPage

    package init(_ entries: [SearchIndex.Entry]) throws {
        try self.init(count: entries.count) { entries[$0] }
    }

    /// - Parameter entry: Makes the entry of a photo; called twice per photo (words, then documents),
    ///   so the entries of a 1,000,000-photo site are never all held at once.
    package init(count: Int, entry: (Int) throws -> SearchIndex.Entry) throws {
        var postings: [String: [Int]] = [:]
        for id in 0..<count {
            var seen = Set<String>()
            for word in Self.words(try entry(id).searchText) where seen.insert(word).inserted {
                postings[word, default: []].append(id)
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Each file is made whole as soon as its body is, and the version is hashed as they come:
        // the bodies are not kept a second time beside the files.
        var files: [RenderedPage] = []
        var digest = SHA256()
        func add(_ key: String, _ json: Data) {
            digest.update(data: Data(key.utf8))
            digest.update(data: json)
            var data = Data("gallerySearchData(\"\(key)\",".utf8)
            data.append(json)
            data.append(contentsOf: ");\n".utf8)
            files.append(RenderedPage(path: key + ".js", contents: data))
        }
        var firstWords: [String] = []
        var shard = Data()
        var shardFirst: String?
        func closeShard() {
            guard let first = shardFirst else { return }
            let key = "t\(firstWords.count)"
            add(key, Data("{".utf8) + shard + Data("}".utf8))
            firstWords.append(first)
            shard = Data()
            shardFirst = nil
        }
        for word in postings.keys.sorted(by: Self.utf16Order) {
            defer { postings[word] = nil }
            // Words are letters and digits only, and lists base-36 or base64, so neither needs escaping.
            let member = Data("\"\(word)\":\"\(Self.encode(postings[word] ?? [], count: count))\"".utf8)
            if shardFirst != nil, shard.count + member.count > Self.shardBytes { closeShard() }
            if shardFirst == nil { shardFirst = word } else { shard.append(UInt8(ascii: ",")) }
            shard.append(member)
        }
        closeShard()
        for start in stride(from: 0, to: count, by: Self.documentsPerChunk) {
            let rows: [[JSONScalar]] = try (start..<min(start + Self.documentsPerChunk, count)).map {
                let entry = try entry($0)
                return [
                    .text(entry.title), .text(entry.url), .text(entry.thumb), .number(entry.width),
                    .number(entry.height)
                ]
            }
            add("d\(start / Self.documentsPerChunk)", try encoder.encode(rows))
        }
        let version = Digest(digest.finalize()).hex.prefix(10)
        let folder = SiteLayout.search(version: String(version))
        for index in files.indices { files[index].path = folder + files[index].path }
        self.files = files
        let info = Manifest(folder: folder, count: count, chunk: Self.documentsPerChunk, shards: firstWords)
        manifest = RenderedPage(
            path: SiteLayout.searchScript,
            contents: SearchIndex.script(json: try encoder.encode(["sharded": info])))
    }

    package struct Manifest: Encodable {
        package var folder: String
        package var count: Int
        package var chunk: Int
        /// The first word of each term shard, in order.
        package var shards: [String]

        package init(folder: String, count: Int, chunk: Int, shards: [String]) {
            self.folder = folder
            self.count = count
            self.chunk = chunk
            self.shards = shards
        }
    }

    enum JSONScalar: Encodable {
        case text(String), number(Int), decimal(Double)
        func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let value): try container.encode(value)
            case .number(let value): try container.encode(value)
            case .decimal(let value): try container.encode(value)
            }
        }
    }

    /// JavaScript compares strings by UTF-16 code units; the manifest's order must be the same.
    package static func utf16Order(_ lhs: String, _ rhs: String) -> Bool {
        lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    /// Sorted photo ids as the shorter of base-36 deltas joined by `,` (`"3,1,a"` is 3, 4, 14) and a
    /// bitmap (`~` then base64, bit `i % 8` of byte `i / 8` set for photo `i`).
    package static func encode(_ ids: [Int], count: Int) -> String {
        var previous = 0
        let deltas = ids.map { id -> String in
            defer { previous = id }
            return String(id - previous, radix: 36)
        }.joined(separator: ",")
        let bitmapLength = 1 + ((count + 7) / 8 + 2) / 3 * 4
        guard bitmapLength < deltas.utf8.count else { return deltas }
        var bits = [UInt8](repeating: 0, count: (count + 7) / 8)
        for id in ids { bits[id / 8] |= 1 << UInt8(id % 8) }
        return "~" + Data(bits).base64EncodedString()
    }

    /// The words of a text as the script finds them: lower-cased, accents removed (canonical
    /// decomposition, then U+0300–U+036F dropped, as `normalize("NFD")` and a regex do), split at
    /// every character that is not a letter or a digit (`/[^\p{L}\p{N}]+/u`).
    package static func words(_ text: String) -> [String] {
        var result: [String] = []
        var word = String.UnicodeScalarView()
        func flush() {
            if !word.isEmpty { result.append(String(String(word).prefix(maxWordLength))) }
            word = String.UnicodeScalarView()
        }
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            if (0x300...0x36F).contains(scalar.value) { continue }
            if isLetterOrDigit(scalar) { word.append(scalar) } else { flush() }
        }
        flush()
        return result
    }

    package static func isLetterOrDigit(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber:
            true
        default: false
        }
    }
}
