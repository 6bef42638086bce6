import Foundation
import GalleryImaging
import GalleryPipeline
import Testing

/// Animations on their photo pages in headless Chromium, through `Tests/Browser/check_animation.py`,
/// on the fixtures of `AnimationBuildTests`: the ANIMATION button shows the motion over the still
/// and plays it, past its length it is still playing (it loops, where a Live Photo's ends), and
/// the button pressed again hides it. A GIF kept as it is is an image shown and hidden the same way.
/// Skipped where Chromium, selenium, Pillow or ffmpeg are missing; in CI a missing tool fails it.
extension LoadSensitive {
    @Suite("Animations in a real browser", .serialized)
    struct AnimationBrowserTests {
        static let enabled =
            BrowserTests.enabled
            && ((MediaTool.find("ffmpeg") != nil && GainMapPython.ready)
                || ProcessInfo.processInfo.environment["CI"] != nil)

        @Test(
            "The animation button plays a looping clip or a kept GIF and stops it: Chromium",
            .enabled(if: enabled, "needs \(BrowserTests.tools.missing.joined(separator: ", ")), Pillow and ffmpeg"))
        func inChromium() async throws {
            try BrowserTests.tools.require()
            let (folder, _) = try AnimationBuildTests.site(["bounce.gif", "spin.webp", "small.gif"])
            let report = try await VideoBuildTests.build(folder)
            #expect(report.photosPublished == 3 && report.warnings.isEmpty, "\(report.failures) \(report.warnings)")
            let script = Fixtures.repository.appendingPathComponent("Tests/Browser/check_animation.py")
            let result = BrowserTools.run([
                "python3", script.path, "--site", folder.appendingPathComponent("public").path
            ])
            guard result.status == 0,
                let pages = try JSONSerialization.jsonObject(with: result.output) as? [String: [String: Any]]
            else {
                throw BrowserToolsMissing(
                    description: "check_animation.py failed (\(result.status)): \(result.errors.suffix(3000))")
            }
            #expect(Set(pages.keys) == ["bounce", "spin", "small"], "\(pages.keys)")
            for (photo, page) in pages {
                func state(_ name: String) -> [String: Any] { page[name] as? [String: Any] ?? [:] }
                let video = photo != "small"
                #expect(state("load")["tag"] as? String == (video ? "VIDEO" : "IMG"), "\(photo): \(page)")
                #expect(state("load")["hidden"] as? Bool == true, "\(photo): \(page)")
                #expect((state("load")["label"] as? String)?.hasPrefix("Animation") == true, "\(photo): \(page)")
                for name in ["pressed", "later"] {
                    #expect(state(name)["hidden"] as? Bool == false, "\(photo) \(name): \(page)")
                    #expect(state(name)["pressed"] as? String == "true", "\(photo) \(name): \(page)")
                    if video { #expect(state(name)["paused"] as? Bool == false, "\(photo) \(name): \(page)") }
                }
                if video { #expect(state("load")["loop"] as? Bool == true, "\(photo): \(page)") }
                #expect(state("pressedAgain")["hidden"] as? Bool == true, "\(photo): \(page)")
                #expect(state("pressedAgain")["pressed"] as? String == "false", "\(photo): \(page)")
                #expect((page["errors"] as? [Any])?.isEmpty == true, "\(photo): \(page)")
            }
        }
    }
}
