#if canImport(Glibc)
    import Foundation
    import GalleryModel
    import Glibc
#endif

/// Decides, before a build does any work, whether it may write into its output folder, and takes
/// a folder over (`build --force`) by moving what galleryssg did not write out of the way.
///
/// A build writes only into a folder that is missing, empty, or a galleryssg site (it has the
/// `SiteMarker`, or it was built by a version before the marker: it has an `index.html` and a
/// `_headers` file and the state recorded builds). Anything else may be someone's documents: the
/// swap would carry them into the spare and a later build would prune them, so it is refused.
/// Taking over never deletes: each foreign entry is renamed into a folder beside the output.
package enum OutputFolder {
    /// A folder the output must keep clear of, and whether the output may lie inside it.
    package struct Protected: Sendable {
        /// What the folder is, in the words of the config (`the photos folder "source.path"`).
        package var role: String
        package var folder: URL
        /// True for the config's own folder, where `public/` normally is.
        package var outputMayBeInside: Bool

        package init(_ role: String, _ folder: URL, outputMayBeInside: Bool = false) {
            self.role = role
            self.folder = folder.standardizedFileURL
            self.outputMayBeInside = outputMayBeInside
        }
    }

    /// What `claim` found.
    package struct Claim: Sendable, Equatable {
        /// True when the folder was built by an earlier galleryssg without a marker, and adopted.
        var adopted = false
        /// Where foreign files were moved (`--force`), and how many entries; nil when none were.
        package var moved: URL?
        package var movedCount = 0
    }

    /// Refuses an output that is, contains, or (for all but the config's folder) lies inside a
    /// folder the site needs.
    /// - Throws: `OutputError.place` naming both folders and the reason.
    package static func checkPlace(_ output: URL, protecting protected: [Protected]) throws {
        let path = output.standardizedFileURL.path
        for entry in protected {
            let folder = entry.folder.path
            if folder == path {
                throw OutputError.place(output: path, entry.role, folder, "is the same folder")
            }
            if folder.hasPrefix(path.hasSuffix("/") ? path : path + "/") {
                throw OutputError.place(output: path, entry.role, folder, "contains")
            }
            if !entry.outputMayBeInside, path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") {
                throw OutputError.place(output: path, entry.role, folder, "is inside")
            }
        }
    }

    /// Checks the output folder before a build, and with `takeOver` moves what galleryssg did not
    /// write there into `aside`.
    /// - Parameters:
    ///   - book: Where the state keeps the sites' records (the names at the root a build wrote).
    ///   - builtByState: Whether the site's state recorded builds, so that an unmarked site with an
    ///     `index.html` and a `_headers` file is taken as one an earlier galleryssg built.
    ///   - aside: Where foreign files go with `takeOver`; made only when something is moved.
    /// - Throws: `OutputError` naming the folder, what is in it and the fix.
    package static func claim(
        _ output: URL, book: SiteBook, protecting protected: [Protected], builtByState: () -> Bool,
        takeOver: Bool, aside: URL
    ) throws -> Claim {
        let output = output.standardizedFileURL
        try checkPlace(output, protecting: protected)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: output.path, isDirectory: &isDirectory) else { return Claim() }
        guard isDirectory.boolValue else { throw OutputError.notAFolder(output.path) }
        let names = try entries(of: output)
        if names.isEmpty { return Claim() }
        var claim = Claim()
        let foreign: [String]
        if SiteMarker.read(in: output) != nil {
            let top = book.record(of: output)?.top ?? []
            let known = Set(top).union(SiteMarker.names)
            foreign = top.isEmpty ? [] : names.filter { !known.contains($0) }
        } else if names.contains(SiteLayout.home) && names.contains(SiteLayout.headers) && builtByState() {
            claim.adopted = true
            foreign = []
        } else {
            foreign = names
        }
        guard !foreign.isEmpty else { return claim }
        guard takeOver else { throw OutputError.foreign(folder: output.path, foreign) }
        try move(foreign, from: output, into: aside)
        claim.moved = aside
        claim.movedCount = foreign.count
        return claim
    }

    /// A folder beside the output, named for it and the time, that does not exist yet and that no
    /// build reuses or prunes: `public.galleryssg-moved-20261125-153000` (then `…-153000-2`).
    package static func asideFolder(for output: URL, at date: Date = Date()) -> URL {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd-HHmmss"
        let output = output.standardizedFileURL
        let base = "\(output.lastPathComponent).galleryssg-moved-\(formatter.string(from: date))"
        var candidate = output.deletingLastPathComponent().appendingPathComponent(base)
        var number = 1
        while FileManager.default.fileExists(atPath: candidate.path) {
            number += 1
            candidate = output.deletingLastPathComponent().appendingPathComponent("\(base)-\(number)")
        }
        return candidate
    }

    /// The sorted names in a folder.
    package static func entries(of folder: URL) throws -> [String] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        } catch {
            throw OutputError(.unreadable, path: folder.path, "cannot be listed: \(error.localizedDescription)")
        }
    }

    /// Renames each of `paths` (relative to `root`) to the same place under `folder`, making the
    /// folders above it; a rename that fails stops with an error and copies nothing.
    package static func move(_ paths: [String], from root: URL, into folder: URL) throws {
        for path in paths {
            let target = folder.appendingPathComponent(path)
            do {
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            } catch {
                throw OutputError(
                    .writeFailed, path: target.deletingLastPathComponent().path,
                    "cannot be made: \(error.localizedDescription)")
            }
            let source = root.appendingPathComponent(path).path
            var info = stat()
            guard lstat(target.path, &info) != 0 else {
                throw OutputError.notMoved(source, to: target.path, "something is already there")
            }
            guard rename(source, target.path) == 0 else {
                throw OutputError.notMoved(source, to: target.path, String(cString: strerror(errno)))
            }
        }
    }
}
