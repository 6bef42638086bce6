import Foundation
import GalleryConfig
import GalleryModel
import GalleryOutput
import GalleryStore

/// What a built site was made from, and whether it is older than that: `deploy` refuses a site a
/// build would change, because it would publish the old one without a word.
public enum SiteFreshness {
    /// Hex SHA-256 of each input a build records in the site's `SiteRecord`: the config (`configDigest`),
    /// and every file of the templates folder with its path.
    package static func inputs(_ config: SiteConfig) -> [String: String] {
        ["config": configDigest(config.configFile), "templates": templatesDigest(config.templates)]
    }

    /// The config's JSON without its `deploy` block (where the site goes does not change it), with
    /// sorted keys, so a config rewritten in another order or with another deploy target is the
    /// same input; the raw bytes when it is not a JSON object.
    private static func configDigest(_ file: URL) -> String {
        guard let data = try? Data(contentsOf: file) else { return "" }
        guard var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return Digest.sha256(data).description
        }
        object["deploy"] = nil
        let canonical = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? data
        return Digest.sha256(canonical).description
    }

    private static func templatesDigest(_ folder: URL) -> String {
        let root = folder.standardizedFileURL.path
        var summary = Data()
        for path in (try? LocalSite.files(in: folder)) ?? [] {
            let digest =
                (try? Data(contentsOf: URL(fileURLWithPath: root + "/" + path))).map { Digest.sha256($0).description }
                ?? "unreadable"
            summary.append(Data("\(path)\0\(digest)\n".utf8))
        }
        return Digest.sha256(summary).description
    }

    /// What changed since the site in the config's output folder was built.
    /// - Returns: nil when the site is current, or there is none (the deploy says so itself).
    public static func check(_ config: SiteConfig) -> StaleSite? {
        guard FileManager.default.fileExists(atPath: config.output.path) else { return nil }
        guard let marker = config.siteBook.record(of: config.output) else {
            return StaleSite(
                output: config.output.path,
                changes: [
                    SiteMarker.read(in: config.output) == nil
                        ? "it carries no record of what it was built from (an earlier version of galleryssg built it)"
                        : "the state \(config.stateDirectory.path) has no record of what it was built from"
                ])
        }
        let now = inputs(config)
        var changes: [String] = []
        if marker.inputs["config"] != now["config"] { changes.append("the config \(config.configFile.path) changed") }
        if marker.inputs["templates"] != now["templates"] {
            changes.append("the templates in \(config.templates.path) changed")
        }
        if let last = Build.lastRecordedBuild(config), last != marker.stateBuild {
            changes.append("the state \(config.stateDirectory.path) records a later build that did not publish here")
        }
        return changes.isEmpty ? nil : StaleSite(output: config.output.path, changes: changes)
    }
}

/// The site in the output folder is older than its config, templates or state.
public struct StaleSite: Error, CustomStringConvertible, Sendable {
    package var output: String
    package var changes: [String]

    /// The refusal, with the fix.
    public var description: String {
        "\(output): the built site is out of date: \(changes.joined(separator: "; ")). "
            + "Run galleryssg build first, or deploy with --force to publish it as it is"
    }

    /// The warning `check` prints before measuring such a site.
    public var measuring: String {
        "\(output): the built site is out of date (\(changes.joined(separator: "; "))); the figures below are "
            + "of the site as it was built"
    }

    /// The warning `deploy --force` prints instead.
    public var warning: String {
        "\(output): deploying a site that is out of date (--force): \(changes.joined(separator: "; "))"
    }
}
