import Foundation
import GalleryConfig
import GalleryRender
import Testing

/// Issue 14's settings and page values: `viewer.slideshowSeconds` and the file the viewer zooms
/// into (the grid's `sizes` are in GridSourcesTests).
@Suite("Viewer settings and page values")
struct ViewerSettingsTests {
    let file = URL(fileURLWithPath: "/sites/demo/site-config.json")

    func load(_ viewer: String) throws -> SiteConfig {
        let json =
            #"{"source": {"type": "folder", "path": "photos"}\#(viewer.isEmpty ? "" : ", \"viewer\": \(viewer)")}"#
        return try SiteConfig.parse(Data(json.utf8), file: file, environment: [:])
    }

    func message(_ viewer: String) -> String? {
        do {
            _ = try load(viewer)
            return nil
        } catch let error as ConfigError {
            return error.message
        } catch {
            return "unexpected error: \(error)"
        }
    }

    @Test func slideshowSecondsHasADefaultAndIsChecked() throws {
        #expect(try load("").viewer.slideshowSeconds == SiteConfig.Defaults.slideshowSeconds)
        #expect(try load(#"{"slideshowSeconds": 2.5}"#).viewer.slideshowSeconds == 2.5)
        #expect(try load(#"{"slideshowSeconds": 120}"#).viewer.slideshowSeconds == 120)
        for bad in ["0", "0.5", "-3", "121", "1e9"] {
            let text = message(#"{"slideshowSeconds": \#(bad)}"#) ?? ""
            #expect(text.hasPrefix("viewer.slideshowSeconds: ") && text.contains("out of range"), "\(bad): \(text)")
        }
        #expect(message(#"{"slideshowSecs": 3}"#)?.hasPrefix("viewer.slideshowSecs: unknown key") == true)
        #expect(message(#"{"slideshowSeconds": "fast"}"#) != nil)
    }

    @Test func theViewerZoomsIntoWhatABrowserCanShow() {
        for href in ["../../photos/a/original.jpg", "https://live.example.com/x/1_o.JPEG?s=1", "o.png", "o.webp"] {
            #expect(SiteRenderer.browserShows(href), "\(href)")
        }
        for href in ["../../photos/a/original.heic", "o.tiff", "o.dng", "https://example.com/photo"] {
            #expect(!SiteRenderer.browserShows(href), "\(href)")
        }
    }
}
