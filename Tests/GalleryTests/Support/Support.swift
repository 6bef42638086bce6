import Foundation
import GalleryConfig
import GalleryKeys
import GalleryModel
import GalleryRender
import GalleryStore
import Testing

/// Paths of the committed test fixtures and scratch folders for tests.
enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("Fixtures")
    static let repository = root.deletingLastPathComponent().deletingLastPathComponent()

    /// How many times slower than a plain build this test binary runs: `GALLERYSSG_TEST_SLOWDOWN`,
    /// which Scripts/tsan.sh sets, since ThreadSanitizer runs code 5 to 15 times slower.
    static let slowdown = Int(ProcessInfo.processInfo.environment["GALLERYSSG_TEST_SLOWDOWN"] ?? "") ?? 1

    /// A time limit for waiting on a loopback server, stretched by `slowdown`.
    static func seconds(_ limit: Int) -> Int { limit * max(1, slowdown) }

    static func url(_ path: String) -> URL { root.appendingPathComponent(path) }

    static func data(_ path: String) throws -> Data { try Data(contentsOf: url(path)) }

    /// A key made from a name, for tests that need distinct keys.
    static func key(_ name: String) -> Digest { CacheKey.sha256(Data(name.utf8)) }

    /// The placeholder every hand-made gallery item shows.
    static let placeholder = PlaceholderLookup.fixed("data:image/jpeg;base64,AAAA")

    /// `jpeg` with a comment segment holding `text` after its SOI: the same picture in other bytes,
    /// so each copy is its own original with its own work.
    static func unique(_ jpeg: Data, _ text: String) -> Data {
        let comment = Array(text.utf8)
        let length = comment.count + 2
        return jpeg.prefix(2) + Data([0xff, 0xfe, UInt8(length >> 8), UInt8(length & 0xff)] + comment)
            + jpeg.dropFirst(2)
    }

    /// A new empty folder under this test process's folder in the system temp folder, which is
    /// removed when the process exits (a test run made about 200 of them).
    static func temporaryFolder() throws -> URL {
        let url = testProcessFolder.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}

/// The folder every `Fixtures.temporaryFolder` of this process lives in; made on first use, removed at exit.
private let testProcessPath = FileManager.default.temporaryDirectory
    .appendingPathComponent("galleryssg-test-\(getpid())-\(UUID().uuidString)").path
private let testProcessFolder: URL = {
    try? FileManager.default.createDirectory(atPath: testProcessPath, withIntermediateDirectories: true)
    atexit { try? FileManager.default.removeItem(atPath: testProcessPath) }
    return URL(fileURLWithPath: testProcessPath)
}()

extension ImageSettings {
    /// The config defaults, for tests that need settings without a config file: what
    /// `SiteConfig.parse` makes of a config that sets nothing under `images`, so that they cannot
    /// drift from the real defaults (a hand-written copy here once said quality 85 to the config's 82).
    static func defaults() throws -> ImageSettings {
        let minimal = #"{"source": {"type": "folder", "path": "photos"}}"#
        return try SiteConfig.parse(Data(minimal.utf8), file: Fixtures.url("site-config.json"), environment: [:]).images
    }
}

/// Suites that must not run beside each other: the browser tests measure layout shift and timing
/// in Chromium, the watch test asserts that a rebuild and reload arrive within two seconds, and the
/// incremental and crash-safety suites build hundreds of photos (one in a subprocess). Run side by
/// side on two cores, the builds starved the browser checks (a layout shift of 0.17 was seen on
/// the Flickr fixture grid only under that load).
@Suite(.serialized) enum LoadSensitive {}
