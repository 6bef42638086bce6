#if canImport(Glibc)
    import Foundation
    import Glibc
#endif

/// Where the state keeps what galleryssg knows of each site folder it built (`STATE/sites/`): for
/// the folder whose marker names `ID`, its record (`ID.json`, a `SiteRecord`) and its file list
/// (`ID.files`, site-relative paths each followed by a NUL byte). The output, its spare and a staging
/// folder each carry their own name, so a folder's list travels with it through every swap and a
/// killed build never leaves a folder pointing at another's list.
///
/// Lists name every published path, the secret folders of unlisted and protected albums included, so
/// they live here, private to the user (0700 folder, 0600 files), and never in the output folder. A
/// folder whose marker names no record here (the state was removed) is treated as a site without a
/// list: files of it a build would drop are moved aside, never deleted.
package struct SiteBook: Sendable {
    /// The folder of records: `sites/` inside the state folder.
    package let folder: URL

    package init(stateDirectory: URL) {
        folder = stateDirectory.standardizedFileURL.appendingPathComponent("sites")
    }

    /// A new random name for a site folder's record.
    static func newName() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in
            let hex = String(generator.next() as UInt32, radix: 16)
            return String(repeating: "0", count: 8 - hex.count) + hex
        }.joined()
    }

    private func recordFile(_ name: String) -> String { folder.path + "/" + name + ".json" }
    private func listFile(_ name: String) -> String { folder.path + "/" + name + ".files" }

    /// The record of the site in `site`: from the state, or a format-1 marker's own; nil without one.
    package func record(of site: URL) -> SiteRecord? {
        guard let marker = SiteMarker.read(in: site) else { return nil }
        if let legacy = marker.legacy { return legacy }
        guard let name = marker.site, let data = FileManager.default.contents(atPath: recordFile(name)) else {
            return nil
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return try? decoder.decode(SiteRecord.self, from: data)
    }

    /// The path of the file list of the site in `site`, when it has one that can be read: in the
    /// state, or beside a format-1 marker.
    package func listPath(of site: URL) -> String? {
        guard let marker = SiteMarker.read(in: site) else { return nil }
        let path =
            marker.site.map(listFile) ?? site.appendingPathComponent(SiteMarker.legacyFilesName).path
        var info = stat()
        guard lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return path
    }

    /// The files the site in `site` was built with, or nil when it has no list.
    package func files(of site: URL) -> Set<String>? {
        guard let path = listPath(of: site), let data = FileManager.default.contents(atPath: path) else { return nil }
        return Set(
            data.split(separator: 0, omittingEmptySubsequences: true).map { String(decoding: $0, as: UTF8.self) }
        )
    }

    /// Records the site staged in `site` under a new name, then points its marker at it, and forgets
    /// the record the folder had before (a spare's, or a format-1 marker's list beside it).
    /// - Parameters:
    ///   - list: The new file list; nil to keep the folder's earlier list (the same files as before).
    /// - Throws: What writing failed with; the folder's earlier marker is then still in place.
    package func mark(_ site: URL, _ record: SiteRecord, list: Data?) throws {
        let earlier = SiteMarker.read(in: site)
        let earlierList = list == nil ? listPath(of: site) : nil
        let name = Self.newName()
        try ensureFolder()
        if let list {
            try Self.writePrivate(list, to: listFile(name))
        } else if let earlierList, link(earlierList, listFile(name)) != 0 {
            // Another file system (a format-1 list beside the site): copied instead.
            guard let data = FileManager.default.contents(atPath: earlierList) else {
                throw POSIXError(Self.errorCode())
            }
            try Self.writePrivate(data, to: listFile(name))
        }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try Self.writePrivate(try encoder.encode(record), to: recordFile(name))
        try SiteMarker(site: name).encoded().write(
            to: site.appendingPathComponent(SiteMarker.fileName), options: .atomic)
        unlink(site.appendingPathComponent(SiteMarker.legacyFilesName).path)
        if let old = earlier?.site, old != name { forget(old) }
    }

    /// Rewrites the record of a site kept as it was (a build that changed nothing), under its name.
    package func update(_ site: URL, _ record: SiteRecord) throws {
        guard let name = SiteMarker.read(in: site)?.site else { return try mark(site, record, list: nil) }
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try ensureFolder()
        try Self.writePrivate(try encoder.encode(record), to: recordFile(name))
    }

    /// Removes a record and its list.
    package func forget(_ name: String) {
        unlink(recordFile(name))
        unlink(listFile(name))
    }

    private func ensureFolder() throws {
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Writes a file readable by its owner alone, replacing any file of that name at once.
    private static func writePrivate(_ data: Data, to path: String) throws {
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        let file = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw POSIXError(errorCode()) }
        let written = data.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let count = write(file, bytes.baseAddress! + offset, bytes.count - offset)
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
        let code = errorCode()
        guard close(file) == 0, written else {
            unlink(temporary)
            throw POSIXError(code)
        }
        guard rename(temporary, path) == 0 else {
            unlink(temporary)
            throw POSIXError(errorCode())
        }
    }

    private static func errorCode() -> POSIXErrorCode { POSIXErrorCode(rawValue: errno) ?? .EIO }
}
