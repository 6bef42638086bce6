import Foundation
import GalleryModel
import Yams

/// What a Hugo page bundle's `resources` list says about the files beside its `index.md`.
///
/// ```yaml
/// resources:
/// - src: "sunset*.jpg"
///   title: Sunset over the bay
///   params:
///     description: From the pier, an hour before the storm.
/// ```
/// See https://gohugo.io/content-management/page-resources/#page-resources-metadata.
package struct BundleResource: Sendable, Equatable {
    /// The file name or glob (`*.jpg`) it describes, matched without regard to case.
    package var src: String
    package var title: String?
    /// Markdown: `params.description`, else `params.caption`.
    package var description: String?

    package init(src: String, title: String? = nil, description: String? = nil) {
        self.src = src
        self.title = title
        self.description = description
    }

    /// Whether the resource describes the file `name`, as Hugo matches `src` (a glob, any case).
    package func matches(_ name: String) -> Bool {
        fnmatch(src.lowercased(), name.lowercased(), 0) == 0
    }
}

extension FrontMatter {
    /// The most resources read from one bundle.
    static let maxResources = 10_000

    /// The `resources` list, each entry with its `src`; nil when absent.
    /// - Throws: `MetadataFileError` naming the line of a list that is not mappings with a `src`.
    package func resources() throws -> [BundleResource]? {
        guard let node = fields["resources"] else { return nil }
        guard let entries = node.sequence else {
            throw failure("resources", "\"resources\" must be a list of entries with src, title and params")
        }
        return try entries.prefix(Self.maxResources).map { entry in
            guard let mapping = entry.mapping, let src = mapping["src"]?.scalar?.string, !src.isEmpty else {
                throw failure("resources", "each of \"resources\" must give the file it describes as src: NAME.jpg")
            }
            let params = mapping["params"]?.mapping
            let description = (params?["description"] ?? params?["caption"])?.scalar?.string
            return BundleResource(
                src: String(src.prefix(1_000)),
                title: mapping["title"]?.scalar.flatMap {
                    UntrustedText.clean($0.string, max: EmbeddedMetadata.maxTitle)
                },
                description: description.flatMap { UntrustedText.clean($0, max: EmbeddedMetadata.maxCaption) })
        }
    }
}
