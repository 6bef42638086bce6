import Foundation
import GalleryModel

/// What a deploy will do, worked out before anything is sent: the files to upload in two waves
/// and the objects to delete afterwards.
///
/// The waves are what keeps the published site whole while it changes. Images, stylesheets,
/// scripts and search shards go first, so every page that arrives in the second wave finds what it
/// shows already there; deletions run last, pages before the images they showed, once no new page
/// refers to either.
public struct DeployPlan: Sendable, Equatable {
    /// New and changed files that are not pages, by key.
    package var assets: [LocalFile]
    /// New and changed pages, by key: feeds, indexes and scripts first, then HTML.
    package var pages: [LocalFile]
    /// Objects the target holds that the site no longer has: pages first, then the rest.
    package var deletions: [String]
    /// Keys of `assets` and `pages` that the target already holds (in other bytes).
    package var replaced: Set<String>
    /// Files the target already holds byte for byte.
    package var unchanged: Int
    /// Files the site has, whether they need sending or not.
    package var siteFiles: Int
    /// Every key the target holds once the plan has run: the site's, and with `--no-delete` what it
    /// kept (what a folder target records as its own, `FolderTarget.finished`).
    var heldAfter: [String]

    /// Compares the site with what the target holds.
    /// - Parameters:
    ///   - site: Every file of the built site (`LocalSite.scan`).
    ///   - remote: What `DeployTarget.list` returned.
    ///   - delete: False keeps objects the site no longer has (`--no-delete`).
    package init(site: [LocalFile], remote: [RemoteObject], delete: Bool = true) {
        let held = Dictionary(remote.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })
        let changed = site.filter { file in held[file.key].map { !file.matches($0) } ?? true }
        assets = changed.filter { !$0.isPage }.sorted { $0.key < $1.key }
        pages = changed.filter(\.isPage).sorted {
            (Self.isHTML($0.key) ? 1 : 0, $0.key) < (Self.isHTML($1.key) ? 1 : 0, $1.key)
        }
        replaced = Set(changed.map(\.key).filter { held[$0] != nil })
        let keep = Set(site.map(\.key))
        deletions =
            delete
            ? held.keys.filter { !keep.contains($0) }.sorted {
                (LocalSite.isPage($0) ? 0 : 1, $0) < (LocalSite.isPage($1) ? 0 : 1, $1)
            }
            : []
        unchanged = site.count - changed.count
        siteFiles = site.count
        heldAfter = (delete ? Array(keep) : Array(keep.union(held.keys))).sorted()
    }

    /// Files to upload, in the order they are sent.
    package var uploads: [LocalFile] { assets + pages }
    var uploadBytes: Int { uploads.reduce(0) { $0 + $1.size } }
    package var isEmpty: Bool { uploads.isEmpty && deletions.isEmpty }

    /// One line per action, in order: `+ new`, `~ changed`, `- deleted`, with sizes.
    public var lines: [String] {
        uploads.map { "\(replaced.contains($0.key) ? "~" : "+") \($0.key) (\(ByteCount.text($0.size)))" }
            + deletions.map { "- \($0)" }
    }

    private static func isHTML(_ key: String) -> Bool {
        key.hasSuffix(".html") || key.hasSuffix(".htm")
    }
}
