import Foundation

/// The small file galleryssg leaves at the root of every site it builds (`.galleryssg-site`).
///
/// A folder without the marker is not galleryssg's, so a build refuses to write into it, `clean`
/// does not remove it and a file the site's list does not name is never deleted. The marker holds
/// nothing but an opaque, random name (`site`) under which the state folder keeps what galleryssg
/// knows of that folder (`SiteBook`): what it was built from and the list of its files. Whatever sits
/// in the output folder may be uploaded as it is by any tool, so the marker names no path, counts no
/// file and dates nothing; only the state folder does.
///
/// Sites built before this (format 1) held the record in the marker itself and the file list beside
/// it (`.galleryssg-files`); both are still read, and the next build moves them into the state.
package struct SiteMarker: Codable, Sendable, Equatable {
    /// The marker's name at the site root.
    package static let fileName = ".galleryssg-site"
    /// Where a format-1 site kept its file list: site-relative paths, each followed by a NUL byte.
    /// Read to move it into the state; never written any more.
    package static let legacyFilesName = ".galleryssg-files"
    /// Left in a staging folder while a build writes into it: its time is when the first of the
    /// builds that wrote there began, so the files they made are told from older ones.
    package static let buildingName = ".galleryssg-building"
    /// Names at the site root that belong to the marker, never to the site's pages.
    package static let names: Set<String> = [fileName, legacyFilesName, buildingName]
    /// Bumped when the marker's meaning changes: 2 is the marker that names a record in the state.
    static let currentFormat = 2

    package var format = SiteMarker.currentFormat
    /// The name of the site's record in the state (`SiteBook`): 32 random hex digits; nil in format 1.
    package var site: String?
    /// A format-1 marker's own record (its fields at the top level of the JSON); nil in format 2.
    package var legacy: SiteRecord?

    package init(site: String) {
        self.site = site
    }

    private enum CodingKeys: String, CodingKey { case format, site }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        site = try container.decodeIfPresent(String.self, forKey: .site)
        legacy = format == 1 ? try SiteRecord(from: decoder) : nil
        guard let site else { return }
        guard site.count == 32, site.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
            throw DecodingError.dataCorruptedError(forKey: .site, in: container, debugDescription: "not a site name")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encodeIfPresent(site, forKey: .site)
    }

    /// The marker of the site in `folder`; nil when there is none or it cannot be read.
    package static func read(in folder: URL) -> SiteMarker? {
        guard let data = try? Data(contentsOf: folder.appendingPathComponent(fileName)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(SiteMarker.self, from: data)
    }

    /// The marker as written: sorted JSON on one line.
    package func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self) + Data("\n".utf8)
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

/// What galleryssg knows of a site folder it built, kept in the state (`SiteBook`), never in the site.
package struct SiteRecord: Codable, Sendable, Equatable {
    /// When the site was staged, just before it was swapped in.
    var builtAt: Date
    /// Hex SHA-256 of each input the site was made from, by name (`config`, `templates`).
    package var inputs: [String: String]
    /// The state's number for the build that made the site; nil when none was recorded.
    package var stateBuild: Int64?
    /// The names at the site root that the build wrote (anything else there was added by hand).
    package var top: [String]
    /// The folders given an index page because they had none (`FolderIndexes`): the pages are made
    /// anew by each build that stages, and kept by one that keeps the published site.
    package var folderIndexes: [String]?

    package init(builtAt: Date = Date(), inputs: [String: String], stateBuild: Int64?, top: [String] = []) {
        self.builtAt = builtAt
        self.inputs = inputs
        self.stateBuild = stateBuild
        self.top = top
    }
}
