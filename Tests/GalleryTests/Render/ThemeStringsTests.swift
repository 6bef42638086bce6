import Foundation
import GalleryConfig
import GalleryModel
import GalleryRender
import Testing

/// `language`: the theme's strings from `i18n/<language>.json`, which a site overrides file by file.
@Suite("Theme strings and language")
struct ThemeStringsTests {
    static func config(_ json: String) throws -> SiteConfig {
        let folder = try Fixtures.temporaryFolder()
        let file = folder.appendingPathComponent("site-config.json")
        return try SiteConfig.parse(Data(json.utf8), file: file, environment: [:])
    }

    @Test func everyShippedLanguageHasEveryEnglishKey() throws {
        let theme = try Theme(overridesIn: nil)
        #expect(theme.languages.keys.sorted() == ["de", "en", "es", "fr", "ja"])
        let english = try JSONDecoder().decode([String: String].self, from: try #require(theme.languages["en"]))
        for language in ["de", "es", "fr", "ja"] {
            let table = try JSONDecoder().decode([String: String].self, from: try #require(theme.languages[language]))
            #expect(Set(table.keys) == Set(english.keys), "\(language)")
            // Every placeholder of the English string is in the translation too.
            for (key, text) in english {
                for name in ["{n}", "{total}", "{name}", "{label}", "{title}", "{width}", "{height}", "{host}"]
                where text.contains(name) {
                    #expect(table[key]?.contains(name) == true, "\(language).\(key) lacks \(name)")
                }
            }
        }
    }

    @Test func stringsAndDatesFollowTheLanguage() throws {
        let theme = try Theme(overridesIn: nil)
        let german = try ThemeStrings(theme: theme, language: "de")
        #expect(german.text("navPhotos") == "Fotos")
        #expect(german.count("photoCount", 1) == "1 Foto" && german.count("photoCount", 5) == "5 Fotos")
        #expect(Formatting.date("2018-04-02", strings: german)?.display == "2. April 2018")
        #expect(Formatting.date("2018-04-02T09:05", strings: german)?.display == "2. April 2018, 09:05")
        let japanese = try ThemeStrings(theme: theme, language: "ja")
        #expect(Formatting.date("2018-04-02", strings: japanese)?.display == "2018年4月2日")
        #expect(Formatting.date("2018-04-02")?.display == "2 April 2018")
        // A region falls back to its language's file.
        #expect(try ThemeStrings(theme: theme, language: "fr-CA").text("navAlbums") == "Albums")
        #expect(try ThemeStrings(theme: theme, language: "es-MX").text("navMap") == "Mapa")
    }

    @Test func aSiteOverridesAndAddsLanguagesFileByFile() throws {
        let folder = try Fixtures.temporaryFolder()
        let i18n = folder.appendingPathComponent("i18n")
        try FileManager.default.createDirectory(at: i18n, withIntermediateDirectories: true)
        try Data(#"{"navPhotos": "Bilder"}"#.utf8).write(to: i18n.appendingPathComponent("de.json"))
        try Data(#"{"navPhotos": "Fotografias"}"#.utf8).write(to: i18n.appendingPathComponent("pt.json"))
        let theme = try Theme(overridesIn: folder)
        let german = try ThemeStrings(theme: theme, language: "de")
        #expect(german.text("navPhotos") == "Bilder")
        // The site's file replaced the built-in one; what it lacks is English.
        #expect(german.text("navAlbums") == "Albums" && german.text("navMap") == "Map")
        let portuguese = try ThemeStrings(theme: theme, language: "pt-BR")
        #expect(portuguese.language == "pt-BR" && portuguese.text("navPhotos") == "Fotografias")
    }

    /// A site's language file that is not JSON names the line and column, as the config does.
    @Test func aBrokenLanguageFileNamesTheLine() throws {
        let folder = try Fixtures.temporaryFolder()
        let i18n = folder.appendingPathComponent("i18n")
        try FileManager.default.createDirectory(at: i18n, withIntermediateDirectories: true)
        try Data("{\n  \"navPhotos\": \"Bilder\",\n}\n".utf8).write(to: i18n.appendingPathComponent("de.json"))
        let error = #expect(throws: RenderError.self) {
            try ThemeStrings(theme: try Theme(overridesIn: folder), language: "de")
        }
        #expect(error?.kind == .malformedStrings)
        // The words a person reads: the file, line and column, and the fix.
        #expect(
            error?.description
                == #"i18n/de.json:2:24: trailing comma after the value of "navPhotos"; remove it (JSON allows no comma before "}")"#
        )
    }

    @Test func anUnknownLanguageIsAnErrorNamingTheKey() throws {
        let theme = try Theme(overridesIn: nil)
        let error = #expect(throws: RenderError.self) { try ThemeStrings(theme: theme, language: "xx") }
        #expect(error?.kind == .unknownLanguage)
        // The words list the languages the theme has, for a person to pick from.
        #expect(error?.description.contains("de, en, es, fr, ja") == true)
        let bad = #expect(throws: ConfigError.self) {
            try Self.config(#"{"language": "english!", "source": {"type": "folder", "path": "p"}}"#)
        }
        #expect(bad?.key == "language")
        #expect(try Self.config(#"{"source": {"type": "folder", "path": "p"}}"#).language == "en")
    }

    @Test func aGermanSiteIsGermanThroughout() async throws {
        let entries: [[String: Any]] = (1...4).map {
            [
                "id": "p\($0)", "title": "Photo \($0)", "image": "photos/photo-\($0).jpg", "album": "Reise",
                "takenAt": "2018-04-0\($0)"
            ]
        }
        let site = try FixtureSite.make(entries: entries, config: ["language": "de"])
        _ = try await site.build()
        let grid = try site.read("index.html")
        #expect(grid.contains(#"<html lang="de""#))
        #expect(grid.contains(">Fotos</a>") && grid.contains(">Alben</a>") && grid.contains("Zum Inhalt springen"))
        #expect(grid.contains(#"&quot;many&quot;:&quot;{n} Fotos gefunden.&quot;"#))
        let photo = try site.read("photos/p2/index.html")
        #expect(photo.contains("<dt>Aufgenommen</dt>") && photo.contains(">2. April 2018</time>"))
        #expect(photo.contains(#"<p class="position">Foto "#))
        // The viewer's toolbar, the grid's slideshow button and the infinite scroll's error are German too.
        #expect(
            photo.contains(#"aria-label="Fotobetrachter""#) && photo.contains(">Vergrößern</span>")
                && photo.contains(">Verkleinern</span>") && photo.contains(">Vollbild</span>"))
        #expect(
            photo.contains(#"data-pause="Diashow anhalten"><svg class="icon""#)
                && photo.contains(#"</svg><span class="label visually-hidden">Diashow starten</span>"#))
        #expect(grid.contains(#"</svg> Diashow</button>"#))
        #expect(
            grid.contains(#"data-failed="Weitere Fotos konnten nicht geladen werden." data-retry="Erneut versuchen""#))
        for english in ["Photo viewer", "Zoom in", "Zoom out", "Play slideshow", "Pause slideshow", "Full screen"] {
            #expect(!photo.contains(english), "\(english)")
        }
        #expect(!grid.contains("Slideshow") && !grid.contains("Try again"))
        #expect(try site.read("albums/reise/index.html").contains("4 Fotos"))
        #expect(try site.read("404.html").contains("Seite nicht gefunden"))
    }
}
