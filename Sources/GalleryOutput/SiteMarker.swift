import Foundation

/// The small file galleryssg leaves at the root of every site it builds (`.galleryssg-site`), with
/// the list of the files it wrote there beside it (`.galleryssg-files`).
///
/// A folder without the marker is not galleryssg's, so a build refuses to write into it, `clean`
/// does not remove it and a file the list does not name is never deleted. The marker also says
/// what the site was built from (digests of the config and the templates, and the state's build),
/// so `deploy` can tell a site older than its inputs. Neither file is deployed; both travel with
/// the site into the spare, where the list says which of the spare's files galleryssg wrote.
package struct SiteMarker: Codable, Sendable, Equatable {
    /// The marker's name at the site root.
    package static let fileName = ".galleryssg-site"
    /// The list of files the build wrote: site-relative paths, each followed by a NUL byte.
    package static let filesName = ".galleryssg-files"
    /// Left in a staging folder while a build writes into it: its time is when the first of the
    /// builds that wrote there began, so the files they made are told from older ones.
    package static let buildingName = ".galleryssg-building"
    /// Names at the site root that belong to the marker, never to the site's pages.
    package static let names: Set<String> = [fileName, filesName, buildingName]
    /// Bumped when the marker's meaning changes.
    package static let currentFormat = 1

    package var format = SiteMarker.currentFormat
    /// When the site was staged, just before it was swapped in.
    package var builtAt: Date
    /// Hex SHA-256 of each input the site was made from, by name (`config`, `templates`).
    package var inputs: [String: String]
    /// The state's number for the build that made the site; nil when none was recorded.
    package var stateBuild: Int64?
    /// The names at the site root that the build wrote (anything else there was added by hand).
    package var top: [String]

    package init(builtAt: Date = Date(), inputs: [String: String], stateBuild: Int64?, top: [String] = []) {
        self.builtAt = builtAt
        self.inputs = inputs
        self.stateBuild = stateBuild
        self.top = top
    }

    /// The marker of the site in `folder`; nil when there is none or it cannot be read.
    package static func read(in folder: URL) -> SiteMarker? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(SiteMarker.self, from: data)
    }

    /// The marker as written: pretty, sorted JSON.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }

    /// The files the site in `folder` was built with, or nil when it has no list (a folder of
    /// galleryssg before the list existed, or not a site at all).
    package static func files(in folder: URL) -> Set<String>? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(filesName)) else { return nil }
        return Set(
            data.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) })
    }

    /// The bytes of a file list.
    package static func listing(_ paths: some Sequence<String>) -> Data {
        var bytes: [UInt8] = []
        for path in paths {
            bytes.append(contentsOf: path.utf8)
            bytes.append(0)
        }
        return Data(bytes)
    }
}
