import Foundation

/// A built site as a host receives it: the files `galleryssg deploy` sends, each with its size, and
/// the figures hosts limit (files, the largest file, bytes in all, files in one folder).
///
/// The files are `LocalSite.files`, the deploy's own listing, so the site's marker
/// (`.galleryssg-site`) is left out here exactly as the deploy leaves it out.
package struct SiteMeasure: Sendable, Equatable {
    package struct File: Sendable, Equatable {
        /// Relative to the site root, `/`-separated.
        package var path: String
        package var bytes: Int

        package init(path: String, bytes: Int) {
            self.path = path
            self.bytes = bytes
        }
    }

    /// Every file, sorted by path.
    package var files: [File]
    package var totalBytes: Int
    /// The largest file (the first by path of equally large ones); nil for an empty site.
    package var largest: File?
    /// The folder holding the most files directly (`""` the root), and how many it holds.
    package var busiestFolder: String
    package var busiestFolderFiles: Int

    package init(files: [File]) {
        self.files = files
        totalBytes = files.reduce(0) { $0 + $1.bytes }
        largest = files.reduce(File?.none) { best, file in file.bytes > (best?.bytes ?? -1) ? file : best }
        var perFolder: [String: Int] = [:]
        for file in files { perFolder[Self.folder(of: file.path), default: 0] += 1 }
        let busiest = perFolder.min { ($1.value, $0.key) < ($0.value, $1.key) }
        busiestFolder = busiest?.key ?? ""
        busiestFolderFiles = busiest?.value ?? 0
    }

    /// Measures the site in `folder`.
    /// - Throws: `DeployError` when the folder or a file cannot be read.
    package static func of(_ folder: URL) throws -> SiteMeasure {
        let root = folder.standardizedFileURL.path
        return SiteMeasure(
            files: try LocalSite.files(in: folder).map { path in
                var info = stat()
                guard stat(root + "/" + path, &info) == 0 else {
                    throw DeployError.local(root + "/" + path, "cannot be read: \(String(cString: strerror(errno)))")
                }
                return File(path: path, bytes: Int(info.st_size))
            })
    }

    /// The folder part of a site path: `photos/kite` for `photos/kite/400x266.jpg`, `""` for `index.html`.
    package static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return String(path[..<slash])
    }

    /// The last part of a site path: `400x266.jpg` for `photos/kite/400x266.jpg`.
    package static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}
