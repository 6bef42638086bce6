import Crypto
import Foundation
import GalleryModel

/// A local or mounted folder (an NFS share, an SMB mount, a web server's document root).
///
/// Each file is written beside its destination and renamed over it, so a reader never sees half a
/// file. Content is compared by SHA-256, computed from the folder's files when listing. Folders
/// that a deletion leaves empty are removed too.
///
/// A deploy replaces and deletes files, so it goes only into a folder that is missing, empty, or
/// holds nothing but what galleryssg deployed there: the keys in `record` (a file in the site's
/// state folder, rewritten after each deploy), or without a record a site an earlier deploy left
/// (an `index.html` and a `_headers` file). Anything else is refused before a file is sent.
package struct FolderTarget: DeployTarget {
    package let folder: URL
    /// The keys the last deploy left in the folder, one per line ending in NUL; nil keeps none.
    package let record: URL?

    package init(folder: URL, record: URL? = nil) {
        self.folder = folder.standardizedFileURL
        self.record = record
    }

    package var description: String { "file://" + folder.path }

    package func list() async throws -> [RemoteObject] {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: folder.path, isDirectory: &isDirectory) else { return [] }
        guard isDirectory.boolValue else { throw DeployError.target(folder.path, "is a file, not a folder") }
        let keys = try LocalSite.files(in: folder)
        try checkOwnership(keys)
        var objects: [RemoteObject] = []
        for key in keys {
            let url = folder.appendingPathComponent(key)
            do {
                let data = try Data(contentsOf: url, options: .mappedIfSafe)
                objects.append(RemoteObject(key: key, size: data.count, sha256: SigV4.hex(SHA256.hash(data: data))))
            } catch {
                throw DeployError.local(url.path, "cannot be read: \(error.localizedDescription)")
            }
        }
        return objects
    }

    package func put(_ file: LocalFile) async throws {
        let destination = folder.appendingPathComponent(file.key)
        let staging = destination.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.lastPathComponent).galleryssg-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(
                at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
            let data = try Data(contentsOf: file.url)
            guard SigV4.hex(SHA256.hash(data: data)) == file.sha256 else {
                throw DeployError.local(file.url.path, "changed since the deploy was planned; is a build running?")
            }
            try data.write(to: staging)
            if rename(staging.path, destination.path) != 0 {
                let reason = String(cString: strerror(errno))
                try? FileManager.default.removeItem(at: staging)
                throw DeployError.local(destination.path, "cannot be replaced: \(reason)")
            }
        } catch let error as DeployError {
            throw error
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw DeployError.local(destination.path, "cannot be written: \(error.localizedDescription)")
        }
    }

    package func delete(_ keys: [String]) async throws {
        let manager = FileManager.default
        for key in keys {
            let url = folder.appendingPathComponent(key)
            do {
                if manager.fileExists(atPath: url.path) { try manager.removeItem(at: url) }
            } catch {
                throw DeployError.local(url.path, "cannot be deleted: \(error.localizedDescription)")
            }
            var parent = url.deletingLastPathComponent().standardizedFileURL
            while parent.path.hasPrefix(folder.path + "/"),
                (try? manager.contentsOfDirectory(atPath: parent.path).isEmpty) == true
            {
                try? manager.removeItem(at: parent)
                parent = parent.deletingLastPathComponent().standardizedFileURL
            }
        }
    }

    /// Records the keys the folder holds now, for the next deploy's `checkOwnership`.
    package func finished(holding keys: [String]) async throws {
        guard let record else { return }
        do {
            try FileManager.default.createDirectory(
                at: record.deletingLastPathComponent(), withIntermediateDirectories: true)
            try SiteMarker.listing(keys).write(to: record, options: .atomic)
        } catch {
            throw DeployError.local(record.path, "cannot be written: \(error.localizedDescription)")
        }
    }

    /// Refuses a folder holding files no deploy of galleryssg put there.
    private func checkOwnership(_ keys: [String]) throws {
        guard !keys.isEmpty else { return }
        let known: Set<String>
        if let record, let data = try? Data(contentsOf: record) {
            known = Set(data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
        } else if keys.contains(SiteLayout.home) && keys.contains(SiteLayout.headers) {
            return  // deployed before records were kept
        } else {
            known = []
        }
        let foreign = keys.filter { !known.contains($0) }
        if !foreign.isEmpty { throw DeployError.foreignFiles(folder.path, foreign) }
    }
}
