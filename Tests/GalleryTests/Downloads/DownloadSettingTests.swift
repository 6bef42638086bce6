import Foundation
import GalleryConfig
import GalleryMetadata
import GalleryModel
import GalleryProviders
import GalleryRender
import Testing

/// The `download` setting: the config's value and its error, `index.md` and the manifest's
/// `albums`, inheritance down the album tree, and the safe names downloads get.
@Suite("Download setting")
struct DownloadSettingTests {
    static func config(_ changes: [String: Any]) throws -> SiteConfig {
        try SiteConfig.load(from: try FixtureSite.make(entries: [], config: changes).configURL, environment: [:])
    }

    @Test func siteConfigValueDefaultAndError() throws {
        #expect(try Self.config([:]).download == .off)
        #expect(try Self.config(["download": "album"]).download == .album)
        #expect(try Self.config(["download": "photo"]).download == .photo)
        let error = try #require(throws: ConfigError.self) { try Self.config(["download": "zip"]) }
        #expect("\(error)".contains("download"), "\(error)")
        #expect(
            "\(error)".contains(#""zip" is not a download setting (expected "album", "photo" or "none""#), "\(error)")
    }

    @Test func indexMarkdownReadsDownloadAndRefusesOthers() throws {
        let folder = try Fixtures.temporaryFolder()
        let url = folder.appendingPathComponent("index.md")
        try Data("---\ndownload: album\n---\n".utf8).write(to: url)
        #expect(try AlbumIndex.read(url, photoIDsByFileName: [:]).info.download == .album)
        try Data("---\ntitle: t\ndownload: everything\n---\n".utf8).write(to: url)
        let error = try #require(throws: MetadataFileError.self) { try AlbumIndex.read(url, photoIDsByFileName: [:]) }
        #expect(error.kind == .badValue && error.line == 3, "\(error)")
        // The words list the values a person may write.
        #expect(error.reason.contains(#"unknown download "everything"; use "album", "photo" or "none""#), "\(error)")
    }

    @Test func manifestAlbumsReadDownloadAndReportBadValues() throws {
        var problems: [String] = []
        #expect(ManifestEntryMapper.albumInfo(["download": .string("photo")], problems: &problems).download == .photo)
        #expect(problems.isEmpty)
        #expect(ManifestEntryMapper.albumInfo(["download": .string("all")], problems: &problems).download == nil)
        #expect(ManifestEntryMapper.albumInfo(["download": .bool(true)], problems: &problems).download == nil)
        #expect(problems.count == 2)
        #expect(problems[0].contains(#""download" "all" is not "album", "photo" or "none""#), "\(problems)")
    }

    @Test func subAlbumsInheritUnlessTheySetTheirOwn() throws {
        let photos = [
            AlbumFixture.photo("a", album: "2024/Iceland/Day 1"), AlbumFixture.photo("b", album: "2024/Iceland/Day 2"),
            AlbumFixture.photo("c", album: "2024/Norway"), AlbumFixture.photo("d", album: "2023")
        ]
        let infos = ["2024/Iceland": AlbumInfo(download: .album), "2024/Iceland/Day 2": AlbumInfo(download: .off)]
        for (site, other) in [(DownloadSetting.off, DownloadSetting.off), (.photo, .photo)] {
            let fixture = try AlbumFixture(["download": site.rawValue])
            let tree = try fixture.plan(photos, albums: infos).sections.albums
            let setting = Dictionary(uniqueKeysWithValues: tree.albums.map { ($0.path, $0.download) })
            #expect(
                setting == [
                    "2024": other, "2024/Iceland": .album, "2024/Iceland/Day 1": .album,
                    "2024/Iceland/Day 2": .off, "2024/Norway": other, "2023": other
                ])
        }
        // The setting is part of the album settings' key, so pages are rendered again when it changes.
        #expect(
            AlbumTree.infoKey(["x": AlbumInfo(download: .album)])
                != AlbumTree.infoKey(["x": AlbumInfo(download: .photo)]))
        #expect(AlbumTree.infoKey(["x": AlbumInfo(download: .off)]) != AlbumTree.infoKey(["x": AlbumInfo()]))
    }

    @Test func hostileNamesBecomeSafeUniqueFileNames() {
        #expect(DownloadName.clean("../../etc/passwd") == "etc_passwd")
        #expect(DownloadName.clean("..") == "")
        #expect(DownloadName.clean("a\u{0}b\u{1B}[31mc\nd\u{202E}gpj.exe") == "a_b_31mc_d_gpj.exe")
        #expect(DownloadName.clean("C:\\Users\\x") == "C_Users_x")
        #expect(DownloadName.clean(".hidden") == "hidden")
        #expect(DownloadName.clean("a....b") == "a.b")
        #expect(DownloadName.clean(String(repeating: "x", count: 500)).count == DownloadName.maxStem)
        #expect(DownloadName.clean("Été à Reykjavík (2)") == "Été à Reykjavík (2)")
        #expect(
            DownloadName.unique(["IMG_1.jpg", "IMG_1.jpg", "img_1.JPG", "IMG_1-2.jpg", "x"])
                == ["IMG_1.jpg", "IMG_1-3.jpg", "img_1-4.JPG", "IMG_1-2.jpg", "x"])
    }

    @Test func nameComesFromTheSourceWithTheDownloadsExtension() throws {
        let fixture = try AlbumFixture()
        var photo = AlbumFixture.photo("p1")
        photo.image = ImageLocation(remote: false, description: "/library/2024/../IMG_0001.HEIC")
        var item = fixture.items([photo])[0]
        #expect(DownloadName.of(item) == "IMG_0001.jpg")  // the largest derivative, a JPEG
        item.original = .published("photos/p1/original.jpg")
        #expect(DownloadName.of(item) == "IMG_0001.jpg")
        photo.image = ImageLocation(remote: true, description: "https://cdn.example/a/%2E%2E/?name=..%2Fevil#x")
        item.photo = photo
        #expect(DownloadName.of(item) == "p1.jpg")  // nothing usable in the URL: the photo's id
        photo.image = ImageLocation(remote: false, description: "/photos/\u{7}..\u{7}.jpg")
        item.photo = photo
        #expect(!DownloadName.of(item).contains(".."))
    }
}
