import Foundation
import GalleryMetadata
import GalleryModel
import GalleryProviders
import Testing

/// Files other tools wrote, read without configuration: sigal's and Pelican's `Key: value` header
/// lines, Hugo's YAML and TOML bundles, and unknown keys reported rather than fatal.
@Suite struct ForeignMetadataTests {
    static func file(_ name: String, _ text: String) throws -> URL {
        try SidecarTests.file(name, text)
    }

    /// sigal's album `index.md`, as its docs write it ("Album information").
    @Test func sigalAlbumIndex() throws {
        let url = try Self.file(
            "index.md",
            "Title: An example gallery\nThumbnail: b.jpg\nOrder: 03\nAuthor: Ada\n\nLorem *ipsum*.\n\nMore text.\n")
        let contents = try AlbumIndex.read(url, photoIDsByFileName: ["a.jpg": "a", "b.jpg": "b"])
        #expect(contents.info.title == "An example gallery")
        #expect(contents.info.cover == "b")
        #expect(contents.weight == 3)
        #expect(contents.info.description == "Lorem *ipsum*.\n\nMore text.")
        #expect(contents.warnings.isEmpty, "\(contents.warnings)")  // Author means nothing for an album: left out
    }

    /// sigal's photo sidecar `IMG.md`: `Title:`, a blank line, the description; keys in any case.
    @Test func sigalPhotoSidecar() throws {
        let url = try Self.file(
            "IMG_1.md", "TITLE: First light\nauthor: Ada\n    Lovelace\norder: 2\nDate: 2024-06-01\n\nThe harbour.\n")
        let sidecar = try PhotoSidecar.read(markdown: url, xmp: nil)
        #expect(sidecar.title == "First light")
        #expect(sidecar.author == "Ada Lovelace")
        #expect(sidecar.order == 2)
        #expect(sidecar.takenAt?.hasPrefix("2024-06-01") == true)
        #expect(sidecar.description == "The harbour.")
        #expect(sidecar.warnings.isEmpty)
    }

    /// A description whose first line merely has a colon stays the description.
    @Test func proseIsNotMistakenForHeaderLines() throws {
        let texts = [
            "Note: the light was low.\nShot at 6 am.", "Shot at dawn: the light was low.", "Title: x\nand prose"
        ]
        for text in texts {
            let matter = try FrontMatter.parse(text, file: "x.md")
            #expect(matter.format == .none && matter.fields.isEmpty, "\(text)")
            #expect(matter.body == text)
        }
    }

    /// A capitalised key inside `---` is left out with a warning naming the file, line and the nearest
    /// key; the rest of the file is read and the photo is not dropped.
    @Test func unknownKeyIsAWarning() throws {
        let url = try Self.file("IMG_2.md", "---\nrating: 4\nTitle: Capital\nshoot: x\n---\nStill read.\n")
        let sidecar = try PhotoSidecar.read(markdown: url, xmp: nil)
        #expect(sidecar.rating == 4 && sidecar.description == "Still read." && sidecar.title == nil)
        #expect(sidecar.warnings.map(\.line) == [3, 4])
        #expect(sidecar.warnings.allSatisfy { $0.kind == .unknownKey && $0.file == url.path })
        let expected = "\(url.path):3: unknown key \"Title\" left out; did you mean \"title\"?"
        #expect(sidecar.warnings.first?.description == expected)
        let album = try AlbumIndex.read(try Self.file("index.md", "---\ntitel: T\n---\n"), photoIDsByFileName: [:])
        #expect(album.warnings.map(\.reason) == ["unknown key \"titel\" left out; did you mean \"title\"?"])
    }

    /// A Hugo leaf bundle in YAML: title, description, weight, draft and resources' titles and params.
    @Test func hugoYAMLBundle() throws {
        let url = try Self.file(
            "index.md",
            """
            ---
            title: Harbour
            description: Boats at rest.
            date: 2024-06-01
            weight: 2
            draft: true
            slug: harbour
            resources:
            - src: "IMG_*.jpg"
              title: Boat
              params:
                description: Moored since May.
            ---

            """)
        let contents = try AlbumIndex.read(url, photoIDsByFileName: [:])
        #expect(contents.info.title == "Harbour" && contents.info.description == "Boats at rest.")
        #expect(contents.weight == 2 && contents.draft)
        let boat = BundleResource(src: "IMG_*.jpg", title: "Boat", description: "Moored since May.")
        #expect(contents.resources == [boat])
        #expect(contents.resources.first?.matches("img_7.JPG") == true)
        #expect(contents.resources.first?.matches("DSC_7.jpg") == false)
        #expect(contents.warnings.isEmpty, "\(contents.warnings)")
    }

    /// The same in TOML between `+++` lines, with the forms Hugo users write.
    @Test func hugoTOMLBundle() throws {
        let matter = try FrontMatter.parse(Self.hugoTOML, file: "index.md")
        #expect(matter.format == .toml)
        #expect(try matter.string("title", max: 100) == "Harbour \"walk\"")
        #expect(try matter.string("date", max: 100) == "2024-06-01T10:20:00+02:00")
        #expect(try matter.integer("weight") == 3 && matter.bool("draft") == false)
        #expect(try matter.list("tags", max: 100, count: 10) == ["sea", "boats"])
        #expect(try matter.string("description", max: 100) == "Two lines joined.")
        #expect(try matter.resources() == [BundleResource(src: "IMG_*.jpg", title: "Boats", description: "At dawn.")])
        #expect(matter.lines["title"] == 2 && matter.lines["resources"] == 12)
        #expect(matter.body == "Body.")
        let cases: [(String, Int)] = [
            ("+++\ntitle = \"a\"\ntitle = \"b\"\n+++\n", 3), ("+++\ntitle = \"open\n+++\n", 2),
            ("+++\n[params\n+++\n", 2), ("+++\ntitle = \"a\"\n", 1), ("+++\nx = [1, 2\n+++\n", 2)
        ]
        for (toml, line) in cases {
            let error = try #require(throws: MetadataFileError.self) { try FrontMatter.parse(toml, file: "i.md") }
            #expect(error.kind == .malformed && error.line == line, "\(toml): \(error)")
        }
    }

    /// A Hugo bundle's TOML front matter (also a seed of the `front-matter` fuzz harness).
    static let hugoTOML = #"""
        +++
        title = "Harbour \"walk\""
        date = 2024-06-01T10:20:00+02:00
        weight = 3
        draft = false
        tags = ["sea", 'boats', ]
        params.mood = { light = "low", warm = true }
        description = """
        Two lines \
            joined."""

        [[resources]]
        src = "IMG_*.jpg"
        title = "Boats"
        [resources.params]
        description = "At dawn."
        +++
        Body.
        """#

    /// Hugo's `draft: true` on a photo's own file leaves the photo out, as `hidden` does.
    @Test func hugoDraftSidecarHides() throws {
        let file = try Self.file("a.md", "+++\ndraft = true\nweight = 5\n+++\n")
        let sidecar = try PhotoSidecar.read(markdown: file, xmp: nil)
        #expect(sidecar.hidden && sidecar.order == 5 && sidecar.warnings.isEmpty)
    }
}
