import Foundation
import GalleryMetadata
import GalleryProviders

extension FuzzHarness {
    /// Sidecar and `index.md` front matter (YAML through Yams, TOML, header lines) and its typed accessors.
    static let frontMatter = FuzzHarness(
        name: "front-matter",
        summary: "FrontMatter.parse and its typed accessors (string, bool, list, integer, resources, unknownKeys)"
    ) { data in
        guard data.count <= FrontMatter.maxBytes, let text = String(validating: data, as: UTF8.self),
            let matter = try? FrontMatter.parse(text, file: "photo.md")
        else { return nil }
        _ = try? matter.string("title", "name", max: 300)
        _ = try? matter.bool("hidden")
        _ = try? matter.list("tags", "keywords", max: 100, count: 100)
        _ = try? matter.integer("order", "weight")
        _ = try? matter.resources()
        _ = matter.normalised(for: .albumIndex, known: ["title", "cover"]).unknownKeys(["title", "cover"])
        return nil
    }
}
