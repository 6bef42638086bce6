import Foundation
import GalleryConfig

extension FuzzHarness {
    /// The config loader: JSON, `${NAME}` substitution, decoding and validation.
    static let config = FuzzHarness(
        name: "config",
        summary: "SiteConfig.parse (JSON, ${ENV} substitution, decoding, validation)"
    ) { data in
        _ = try? SiteConfig.parse(
            data, file: URL(fileURLWithPath: "/fuzz/site/site-config.json"),
            environment: ["HOME": "/fuzz", "FLICKR_KEY": "abc123"])
        return nil
    }
}
