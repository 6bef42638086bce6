import Foundation
import GalleryImaging
import GalleryMetadata
import GalleryModel
import GalleryProviders
import GalleryRender
import Testing

/// `NAME.md` / `NAME.xmp` sidecars, front matter and album `index.md` files.
@Suite("Sidecars and album index")
struct SidecarTests {
    static let photos = Fixtures.url("metadata/site/photos")

    /// Writes `text` to a new file and returns its URL.
    static func file(_ name: String, _ text: String) throws -> URL {
        let url = try Fixtures.temporaryFolder().appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    @Test func markdownSidecar() throws {
        let sidecar = try PhotoSidecar.read(markdown: Self.photos.appendingPathComponent("beach.md"), xmp: nil)
        #expect(sidecar.title == "Beach at dusk")
        #expect(sidecar.tags == ["sand", "sea & sky"])
        #expect(sidecar.takenAt == "2023-08-09T18:30:00")
        #expect(sidecar.author == "Sidecar Author")
        #expect(sidecar.license == License(name: "CC-BY-SA-4.0"))
        #expect(sidecar.license?.url != nil)
        #expect(sidecar.description == "Low tide at **Reynisfjara**.\n\nShot from the cliff path.")
        #expect(!sidecar.hidden)
    }

    /// darktable's `NAME.jpg.xmp`: EXIF-style date, caption escaped for Markdown.
    @Test func xmpSidecar() throws {
        let sidecar = try PhotoSidecar.read(markdown: nil, xmp: Self.photos.appendingPathComponent("cliff.jpg.xmp"))
        #expect(sidecar.title == "Cliff from darktable")
        #expect(sidecar.tags == ["birds", "cliffs"])
        #expect(sidecar.author == "Dark Table")
        #expect(sidecar.rating == 5)
        #expect(sidecar.takenAt == "2022-07-08T09:10:11")
        #expect(Markdown.html(try #require(sidecar.description)) == "<p>Fulmars_nesting # on the *ledge*</p>\n")
    }

    /// Within the sidecar layer the `.md` file wins field by field; the `.xmp` file fills the rest.
    @Test func markdownWinsOverXMPAndProviderWinsOverBoth() throws {
        let markdown = try Self.file("p.md", "---\ntitle: From md\nhidden: no\n---\n")
        let sidecar = try PhotoSidecar.read(markdown: markdown, xmp: Fixtures.url("metadata/lightroom-sidecar.xmp"))
        #expect(sidecar.title == "From md")
        #expect(sidecar.author == "First Creator, Second Creator")
        #expect(sidecar.license?.name == "© 2017 First Creator")
        #expect(sidecar.tags == ["Puffin", "Iceland"])

        var photo = Photo(id: "p", title: "From the manifest", tags: ["kept"], image: .file(markdown))
        sidecar.apply(to: &photo)
        #expect(photo.title == "From the manifest")
        #expect(photo.tags == ["kept"])
        #expect(photo.author == "First Creator, Second Creator")
        #expect(photo.rating == 3)
    }

    @Test func frontMatterForms() throws {
        let commas = try FrontMatter.parse("---\ntags: a, b ,a,, c\nhidden: true\n---\nBody", file: "x.md")
        #expect(try commas.list("tags", max: 100, count: 100) == ["a", "b", "c"])
        #expect(try commas.bool("hidden") == true)
        #expect(commas.body == "Body")
        let plain = try FrontMatter.parse("\u{feff}Just *Markdown*\r\n", file: "x.md")
        #expect(plain.fields.isEmpty && plain.body == "Just *Markdown*")
        let empty = try FrontMatter.parse("---\n---\n", file: "x.md")
        #expect(empty.fields.isEmpty && empty.body == nil)
    }

    /// Every malformed sidecar names its file and line.
    @Test func malformedSidecarsNameFileAndLine() throws {
        let cases: [(text: String, line: Int?, kind: MetadataFileError.Kind)] = [
            ("---\ntitle: open\n", 1, .malformed),
            ("---\ntitle: ok\ntags: [a, b\n---\n", 4, .malformed),
            ("---\ndate: next tuesday\n---\n", 2, .badValue),
            ("---\nrating: 7\n---\n", 2, .badValue),
            ("---\nhidden: maybe\n---\n", 2, .badValue),
            ("---\ntitle: [a, b]\n---\n", 2, .badValue),
            ("---\n- a\n- b\n---\n", 2, .malformed)
        ]
        for (text, line, kind) in cases {
            let url = try Self.file("bad.md", text)
            let error = try #require(throws: MetadataFileError.self) { try PhotoSidecar.read(markdown: url, xmp: nil) }
            #expect(error.file == url.path)
            #expect(error.line == line, "\(text)")
            #expect(error.kind == kind, "\(error)")
        }
        let notXMP = try Self.file("bad.xmp", "<x:xmpmeta><rdf:RDF>")
        let error = try #require(throws: MetadataFileError.self) { try PhotoSidecar.read(markdown: nil, xmp: notXMP) }
        #expect(error.kind == .malformed && error.file == notXMP.path && error.line == nil, "\(error)")
    }

    @Test func refusesOversizedFiles() throws {
        let big = try Self.file("big.md", "---\ntitle: x\n---\n" + String(repeating: "a", count: FrontMatter.maxBytes))
        let error = try #require(throws: MetadataFileError.self) { try PhotoSidecar.read(markdown: big, xmp: nil) }
        #expect(error.kind == .tooLarge, "\(error)")
        let bigXMP = try Self.file("big.xmp", String(repeating: " ", count: XMPReader.maxPacketBytes + 1))
        let xmpError = try #require(throws: MetadataFileError.self) {
            try PhotoSidecar.read(markdown: nil, xmp: bigXMP)
        }
        #expect(xmpError.kind == .tooLarge, "\(xmpError)")
    }

    @Test func albumIndex() throws {
        let ids = ["a.jpg": "iceland-a", "b.jpg": "iceland-b"]
        let contents = try AlbumIndex.read(
            Self.photos.appendingPathComponent("Iceland/index.md"), photoIDsByFileName: ids)
        let (info, hidden) = (contents.info, contents.hiddenFiles)
        #expect(
            info
                == AlbumInfo(
                    title: "Iceland, June 2024", description: "Ten days around the **Ring Road**.", cover: "iceland-b",
                    sort: PhotoSort("-taken"), showInHome: false))
        #expect(hidden == ["a.jpg"])

        let bare = try Self.file("index.md", "Only a description.\n")
        #expect(
            try AlbumIndex.read(bare, photoIDsByFileName: ids)
                == AlbumIndex.Contents(info: AlbumInfo(description: "Only a description.")))
    }

    @Test func albumIndexErrors() throws {
        let cases: [(text: String, line: Int, kind: MetadataFileError.Kind)] = [
            ("---\ntitle: t\nsort: newest\n---\n", 3, .badValue),
            ("---\ncover: missing.jpg\n---\n", 2, .badValue),
            ("---\nhome: sometimes\n---\n", 2, .badValue),
            ("+++\nweight = \"first\"\n+++\n", 2, .badValue),
            ("+++\ntitle = unquoted text\n+++\n", 2, .malformed)
        ]
        for (text, line, kind) in cases {
            let url = try Self.file("index.md", text)
            let error = try #require(throws: MetadataFileError.self) {
                try AlbumIndex.read(url, photoIDsByFileName: ["a.jpg": "a"])
            }
            #expect(error.line == line)
            #expect(error.kind == kind, "\(error)")
        }
    }

    /// Truncated and garbled front matter throws or parses; it never crashes.
    @Test func survivesGarbledFrontMatter() throws {
        let text = try String(contentsOf: Self.photos.appendingPathComponent("Iceland/index.md"), encoding: .utf8)
        let bytes = Array(text.utf8)
        var generator = SystemRandomNumberGenerator()
        for cut in 0...bytes.count {
            _ = try? FrontMatter.parse(String(decoding: bytes.prefix(cut), as: UTF8.self), file: "x.md")
        }
        var failures = 0
        for _ in 0..<300 {
            var garbled = bytes
            for _ in 0..<3 {
                garbled[Int.random(in: 0..<garbled.count, using: &generator)] = UInt8.random(
                    in: 0...127, using: &generator)
            }
            do { _ = try FrontMatter.parse(String(decoding: garbled, as: UTF8.self), file: "x.md") } catch {
                failures += 1
            }
        }
        #expect(failures < 300)
    }
}
