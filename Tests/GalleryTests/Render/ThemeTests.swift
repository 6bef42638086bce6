import Foundation
import GalleryRender
import Testing

@Suite("Default theme")
struct ThemeTests {
    @Test func embeddedThemeMatchesTemplatesFolder() throws {
        let folder = Fixtures.repository.appendingPathComponent("Templates")
        var onDisk: [String: Data] = [:]
        let walker = FileManager.default.enumerator(atPath: folder.path)
        while let path = walker?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: folder.appendingPathComponent(path).path, isDirectory: &isDirectory)
            if exists && !isDirectory.boolValue {
                onDisk[path] = try Data(contentsOf: folder.appendingPathComponent(path))
            }
        }
        #expect(!onDisk.isEmpty)
        #expect(DefaultTheme.files == onDisk, "Templates/ changed: run Scripts/embed-theme.sh")
    }

    @Test func siteTemplatesOverrideFileByFile() throws {
        let folder = try Fixtures.temporaryFolder()
        try "{{<layout}}{{$content}}custom grid{{/content}}{{/layout}}"
            .write(to: folder.appendingPathComponent("grid.mustache"), atomically: true, encoding: .utf8)
        let theme = try Theme(overridesIn: folder)
        #expect(theme.overrides == ["grid.mustache"])
        #expect(theme.templates["grid"]?.contains("custom grid") == true)
        #expect(theme.templates["photo"] == String(decoding: DefaultTheme.files["photo.mustache"]!, as: UTF8.self))
        #expect(theme.staticFiles["static/style.css"] != nil)
    }
}
