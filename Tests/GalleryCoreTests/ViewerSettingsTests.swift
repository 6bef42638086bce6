import Foundation
import Testing
@testable import GalleryCore

/// Issue 14's settings and page values: `viewer.slideshowSeconds`, the grid's `sizes` derived from
/// the stylesheet, and the file the viewer zooms into.
@Suite("Viewer settings and page values")
struct ViewerSettingsTests {
    let file = URL(fileURLWithPath: "/sites/demo/site-config.json")

    func load(_ viewer: String) throws -> SiteConfig {
        let json = #"{"source": {"type": "folder", "path": "photos"}\#(viewer.isEmpty ? "" : ", \"viewer\": \(viewer)")}"#
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

    /// The phone `sizes` comes from the same grid font size the stylesheet sets, so the two cannot
    /// drift apart; tiles wider than the screen are capped at the grid's width.
    @Test func gridSizesFollowTheStylesheet() throws {
        let css = String(decoding: try #require(DefaultTheme.files["static/style.css"]), as: UTF8.self)
        let vw = Formatting.fixed(SiteRenderer.phoneGridFontVW, digits: 2)
        #expect(css.contains(".grid { font-size: \(vw)vw; }"), "style.css no longer sets the phone grid's font size to \(vw)vw")
        for aspect in [0.5, 0.75, 1, 1.5, 2] {
            let sizes = SiteRenderer.gridSizes(aspect: aspect)
            let phone = aspect * SiteRenderer.rowHeightEm * SiteRenderer.phoneGridFontVW * SiteRenderer.rowStretch
            let wide = aspect * SiteRenderer.rowHeightEm * 16 * SiteRenderer.rowStretch
            #expect(sizes == "(max-width: 600px) \(Int(phone.rounded(.up)))vw, \(Int(wide.rounded(.up)))px", "\(aspect)")
        }
        #expect(SiteRenderer.gridSizes(aspect: 3).hasPrefix("(max-width: 600px) calc(100vw - 12px), "))
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
