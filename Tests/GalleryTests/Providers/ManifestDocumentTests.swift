import Foundation
import GalleryProviders
import Testing

/// Manifests read entry by entry (`ManifestDocument`): awkward entries, keys in any order,
/// whitespace, broken documents and the wrong shapes, each read in chunks of many sizes and
/// checked against the whole-document decode it replaced.
@Suite("Manifest read entry by entry")
struct ManifestDocumentTests {
    static let mapper = ManifestEntryMapper(resolver: .base(URL(string: "https://example.com/")!))

    /// What `json` reads as, after checking that every chunk size, down to one byte, reads it
    /// as the whole-document decode does.
    static func read(_ json: String, sourceLocation: SourceLocation = #_sourceLocation) -> ManifestOutcome {
        read(Data(json.utf8), sourceLocation: sourceLocation)
    }

    static func read(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> ManifestOutcome {
        let whole = WholeManifestDecode.outcome(data, mapper: mapper)
        for chunkSize in [1, 2, 3, 5, 8, 64, ManifestBytes.chunkSize] {
            let outcome = ManifestOutcome.entryByEntry(data, mapper: mapper, chunkSize: chunkSize)
            #expect(
                outcome == whole, "chunks of \(chunkSize): \(outcome) but a whole decode: \(whole)",
                sourceLocation: sourceLocation)
        }
        return whole
    }

    @Test func awkwardEntriesAreReadWhole() throws {
        let outcome = Self.read(
            #"""
            {"photos": [
              {"id": "a", "image": "a.jpg", "title": "Brackets ] } [ { and \"quotes\"", "camera": {"make": "X", "lens": "1]}"},
               "extra": [[1, [2, {"deep": ["]", "}", "\\"]}]], {"k": {"k": {"k": null}}}]},
              {"id": "b", "image": "b.jpg", "title": "caf\u00e9 \ud83d\ude00 \/ back\\slash \\\" end", "tags": ["x]", "y}", "\"z\""]},
              {"id": "c", "image": "c.jpg", "author": {"name": "N \"Q\" }", "url": "https://example.com/]"}, "description": "line\none\t}"}
            ]}
            """#)
        #expect(outcome.failure == nil)
        #expect(outcome.photos.map(\.id) == ["a", "b", "c"])
        #expect(outcome.photos.first?.title == #"Brackets ] } [ { and "quotes""#)
        #expect(outcome.photos.first?.camera.lens == "1]}")
        #expect(outcome.photos.dropFirst().first?.title == #"café 😀 / back\slash \" end"#)
        #expect(outcome.photos.dropFirst().first?.tags == ["x]", "y}", #""z""#])
        #expect(outcome.photos.last?.author == #"N "Q" }"#)
    }

    @Test func keysInAnyOrderAndUnknownKeys() {
        let outcome = Self.read(
            #"""
            {"generator": {"name": "x", "list": [1, 2, {"photos": []}]}, "albums": {"2024": {"title": "Year"}},
             "note": "photos: [ not these ]", "huge": 1e400, "lazy": "\u00e9 is never decoded",
             "phot\u006fs": [{"id": "a", "image": "a.jpg", "album": "2024"}], "after": [true, false, null]}
            """#)
        #expect(outcome.photos.map(\.id) == ["a"])
        #expect(outcome.albums["2024"]?.title == "Year")
        #expect(outcome.issues.isEmpty)
    }

    @Test func whitespaceWhereJSONTakesItAndNoTrailingCommas() {
        let outcome = Self.read(
            " \r\n\t{ \n\"photos\"\t:\r[ \n{ \"id\" : \"a\" ,\"image\":\"a.jpg\" } ,\n\t{\"id\":\"b\",\"image\":\"b.jpg\"}  ] ,"
                + " \"albums\" : null  } \n\r\t ")
        #expect(outcome.photos.map(\.id) == ["a", "b"])
        #expect(Self.read("\u{FEFF}[{\"id\": \"a\", \"image\": \"a.jpg\"}]").photos.map(\.id) == ["a"])
        // JSONDecoder takes trailing commas; JSON, and so galleryssg, does not.
        for json in [
            #"[{"id": "a", "image": "a.jpg"},]"#, #"{"photos": [], }"#,
            #"{"photos": [{"id": "a", "image": "a.jpg",}]}"#,
            #"{"photos": [], "albums": {"a": {"title": "A",}}}"#, #"{"photos": [], "x": [1,]}"#
        ] {
            #expect(Self.read(json).failure == ManifestOutcome.notJSON, "\(json)")
        }
    }

    @Test func emptyAndBareArrays() {
        for json in [
            #"{"photos": []}"#, "[]", " [ ] ", #"{"photos": [ ], "albums": null}"#, #"{"albums": {}, "photos": []}"#
        ] {
            let outcome = Self.read(json)
            #expect(outcome.failure == nil && outcome.photos.isEmpty && outcome.issues.isEmpty, "\(json): \(outcome)")
        }
        let bare = Self.read(#"[{"id": "a", "image": "a.jpg"}, 5, "text", null, [1], {"id": "a", "image": "b.jpg"}]"#)
        #expect(bare.photos.map(\.id) == ["a"])
        #expect(bare.issues.map(\.item) == ["photos[1]", "photos[2]", "photos[3]", "photos[4]", "a"])
    }

    @Test func brokenDocumentsAreRefused() {
        let valid =
            #"{"photos": [{"id": "a", "image": "a.jpg", "tags": ["x", "y"]}], "albums": {"2024": {"title": "T"}}}"#
        #expect(Self.read(valid).photos.count == 1)
        // Every truncation of it, and garbage after its end.
        for end in 0..<valid.utf8.count {
            #expect(Self.read(Data(valid.utf8.prefix(end))).failure == ManifestOutcome.notJSON, "first \(end) bytes")
        }
        for garbage in [" x", "]", "}", "{}", ",", "\u{0}", "\u{0C}", " \u{A0}"] {
            #expect(Self.read(valid + garbage).failure == ManifestOutcome.notJSON, "\(valid)\(garbage)")
        }
        for json in [
            "", "   ", #"{"photos": ["#, #"{"photos": [{"id": "a]}"#, #"{"photos": [{"id": "\"}]}"#, "[,]", "[1,,2]",
            #"{"photos": [] "albums": {}}"#, #"{"photos": [],, "x": 1}"#, #"{"photos" []}"#, #"{photos: []}"#,
            #"{"photos": [{"id": "a", "image": "a.jpg"} {"id": "b"}]}"#, #"[{"id": "\u12"}]"#,
            #"{"photos": [], "x": [}"#, #"{"photos": [], "x": tru}"#, "[1true]", #"{"photos": [{"id": 01}]}"#,
            #"{"photos": [{"id": "a\qb"}]}"#, #"{"ph\qotos": []}"#, #"{"photos": [1e400]}"#, "[NaN]", "[1 /* c */]"
        ] {
            #expect(Self.read(json).failure == ManifestOutcome.notJSON, "\(json)")
        }
    }

    /// `JSONDecoder` takes 512 levels of arrays and objects, the document's own included.
    @Test func nestingIsLimitedAsJSONDecoderLimitsIt() {
        func entry(_ levels: Int) -> String {
            String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
        }
        #expect(Self.read("[\(entry(511))]").failure == nil)
        #expect(Self.read("[\(entry(512))]").failure == ManifestOutcome.notJSON)
        #expect(Self.read(#"{"photos": [\#(entry(510))]}"#).failure == nil)
        #expect(Self.read(#"{"photos": [\#(entry(511))]}"#).failure == ManifestOutcome.notJSON)
        #expect(Self.read(#"{"photos": [], "x": \#(entry(511))}"#).failure == nil)
        #expect(Self.read(#"{"photos": [], "x": \#(entry(512))}"#).failure == ManifestOutcome.notJSON)
    }

    @Test func wrongShapesKeepTheirReasons() {
        let photosMissing = #"expected a "photos" array at the top level"#
        for json in [
            "{}", #"{"photos": {}}"#, #"{"photos": "x"}"#, #"{"photo": []}"#, #"{"photos": null, "albums": {}}"#,
            // Albums that do not decode matter less than a missing "photos" array.
            #"{"albums": [1e400], "photos": 5}"#, #"{"photos": 5, "albums": [1e400]}"#
        ] {
            #expect(Self.read(json).failure == photosMissing, "\(json)")
        }
        for (json, kind) in [("5", "a number"), (#""text""#, "a string"), ("null", "null"), ("true", "a boolean")] {
            #expect(Self.read(" \(json) ").failure == #"expected {"photos": [ … ]}, got \#(kind)"#)
        }
        // Invalid JSON anywhere matters more than the shape; albums that do not decode fail a manifest.
        for json in [
            #"{"photos": 5, "x": [}"#, #"{"x": 5,, "photos": 5}"#, #"{"photos": 5, "albums": [e]}"#, "1e400", #""\q""#,
            "5 5",
            #"{"albums": [1e400], "photos": []}"#, #"{"photos": [], "albums": [1e400]}"#
        ] {
            #expect(Self.read(json).failure == ManifestOutcome.notJSON, "\(json)")
        }
    }

    /// Of two equal keys `JSONDecoder` uses the first; so does the entry-by-entry read.
    @Test func duplicateKeysKeepTheFirst() {
        let twice = Self.read(
            #"{"photos": [{"id": "a", "image": "a.jpg"}], "photos": [{"id": "b", "image": "b.jpg"}]}"#)
        #expect(twice.photos.map(\.id) == ["a"])
        #expect(Self.read(#"{"photos": 1, "photos": []}"#).failure == #"expected a "photos" array at the top level"#)
        #expect(Self.read(#"{"photos": [], "photos": 1}"#).failure == nil)
        #expect(Self.read(#"{"photos": [], "photos": [{"id": 1e400}]}"#).failure == nil)
        let albums = Self.read(
            #"{"albums": {"a": {"title": "A"}}, "photos": [], "albums": {"b": {}}, "albums": [1e400]}"#)
        #expect(albums.albums.keys.sorted() == ["a"])
    }

    /// `JSONDecoder` skips a UTF-8 byte order mark and converts UTF-16 and UTF-32, with or without one.
    @Test func otherEncodingsAreReadAsJSONDecoderReadsThem() throws {
        let json = #"{"photos": [{"id": "a", "image": "a.jpg", "title": "Ünïcödé 😀"}]}"#
        let encodings: [String.Encoding] = [
            .utf8, .utf16, .utf16LittleEndian, .utf16BigEndian, .utf32, .utf32LittleEndian,
            .utf32BigEndian
        ]
        for encoding in encodings {
            let data = try #require(json.data(using: encoding))
            if encoding == .utf32 {
                // FF FE 00 00: JSONDecoder takes the little-endian UTF-32 mark for UTF-16's.
                #expect(Self.read(data).failure == ManifestOutcome.notJSON)
            } else {
                #expect(Self.read(data).photos.first?.title == "Ünïcödé 😀", "\(encoding)")
            }
            // A UTF-8 mark before another encoding's text leaves zero bytes where JSON allows none.
            #expect(
                Self.read(Data([0xef, 0xbb, 0xbf]) + data).failure
                    == (encoding == .utf8 ? nil : ManifestOutcome.notJSON))
        }
        // Short documents that look like UTF-16 to JSONDecoder, and a byte order mark before nothing.
        for bytes: [UInt8] in [
            [0x35, 0], [0, 0x35], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff, 0, 0], [0x5b, 0, 0x5d, 0]
        ] {
            _ = Self.read(Data(bytes))
        }
    }

    /// A refused manifest names the line and column where it stops being JSON, whatever the chunk size.
    @Test func refusalsNameTheLineAndColumn() throws {
        let cases = [
            (
                "{\"photos\": [\n  {\"id\": \"a\", \"image\": \"a.jpg\"},\n  {\"id\": \"b\" \"image\": \"b.jpg\"}\n]}",
                #"3:14: expected "," or "}" after the value of "id"; add a comma between the two"#
            ),
            (
                "[{\"id\": \"a\", \"image\": \"a.jpg\"},\n]",
                #"1:31: trailing comma after item 1 of the top-level array; remove it (JSON allows no comma before "]")"#
            ),
            (
                "{\"photos\": [],\n \"x\": [01]}",
                "2:8: a number cannot start with 0 followed by a digit; write 7, not 07, or quote it as a string"
            ),
            (
                #"{"photos": [{"id": 1e400}]}"#,
                "1:13: this value cannot be read (a number too large, or text that is not UTF-8?)"
            ),
            ("\u{FEFF}{\"photos\": []} ]", #"1:16: found "]" after the end of the top-level value; remove it"#)
        ]
        for (json, expected) in cases {
            let data = Data(json.utf8)
            for chunkSize in [1, 3, 64, ManifestBytes.chunkSize] {
                do {
                    _ = try ManifestDocument.read(.data(data, chunkSize: chunkSize), mapper: Self.mapper)
                    Issue.record("\(json) was read")
                } catch ManifestDocument.Failure.invalidJSON(let offset) {
                    let failure = try ManifestDocument.locate(offset, in: .data(data, chunkSize: chunkSize))
                    #expect(failure.description == expected, "\(json), chunks of \(chunkSize)")
                }
            }
        }
    }

    /// A local manifest is read from its file in chunks; errors name the file as before.
    @Test func manifestFilesAreReadInChunks() async throws {
        let folder = try Fixtures.temporaryFolder()
        let file = folder.appendingPathComponent("manifest.json")
        func read(_ url: URL) async -> Result<[String], ProviderError> {
            do {
                let manifest = try await ManifestProvider(location: .file(url), downloader: nil).fetchManifest()
                return .success(manifest.photos.map(\.id))
            } catch {
                return .failure(error as? ProviderError ?? ProviderError(.unreadable, "\(error)"))
            }
        }
        let entries = (0..<3_000).map { #"{"id": "p\#($0)", "image": "photos/\#($0).jpg", "title": "]}\"\#($0)"}"# }
        try Data(#"{"photos": [\#(entries.joined(separator: ",\n"))]}"#.utf8).write(to: file)
        #expect(try await read(file).get() == (0..<3_000).map { "p\($0)" })

        try Data(#"{"photos": [{"id": "a", "image": "a.jpg"}]"#.utf8).write(to: file)
        #expect(
            await read(file).failure(or: "")
                == #"\#(file.path):1:43: the file ends before the "}" that closes the object opened at 1:1"#)
        try Data("{\"photos\": [\n  {\"id\": \"a\", \"image\": \"a.jpg\",}\n]}".utf8).write(to: file)
        #expect(
            await read(file).failure(or: "") == #"\#(file.path):2:31: trailing comma after the value of "image"; "#
                + #"remove it (JSON allows no comma before "}")"#)
        #expect(await read(file).failureKind == .malformed)
        #expect(await read(folder).failureKind == .unreadable)
        #expect(
            await read(folder).failure(or: "") == "\(folder.path): file could not be read; check its permissions; "
                + "check source.path in the config")
        let missing = folder.appendingPathComponent("none.json")
        #expect(
            await read(missing).failure(or: "")
                == "\(missing.path): file not found or not readable; check source.path in the config")
    }
}

extension Result where Failure == ProviderError {
    /// The error's text, or `fallback` when there was none.
    func failure(or fallback: String) -> String {
        if case .failure(let error) = self { return error.description }
        return fallback
    }

    var failureKind: ProviderError.Kind? {
        if case .failure(let error) = self { return error.kind }
        return nil
    }
}
