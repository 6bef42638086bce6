import Foundation
import GalleryModel

/// Maps request paths onto files inside the site folder, refusing anything that would leave it.
///
/// A path is percent-decoded once, then refused if any component is `..`, or if it holds a NUL or a
/// backslash, so `%2e%2e`, `..%2f` and `%5c` tricks are caught after decoding. The file found is
/// then resolved through every symlink and must still lie inside the folder, so a link pointing
/// outside is refused too.
package struct SiteFiles: Sendable {
    /// The site folder with its symlinks resolved.
    package let root: URL

    package init(root: URL) {
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
    }

    package enum Lookup: Equatable, Sendable {
        /// A regular file inside the folder.
        case file(URL)
        /// A folder asked for without its trailing slash: redirect so relative links resolve.
        case redirect(String)
        case missing
        /// The path tries to leave the folder, or is malformed.
        case forbidden
    }

    /// Finds the file for a raw (still percent-encoded) request path; a folder means its `index.html`.
    package func lookup(_ rawPath: String) -> Lookup {
        guard rawPath.hasPrefix("/"), let path = rawPath.removingPercentEncoding,
            !path.contains("\0"), !path.contains("\\")
        else { return .forbidden }
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        guard !components.contains(where: { $0 == ".." }) else { return .forbidden }
        var candidate = components.reduce(root) { $0.appendingPathComponent(String($1)) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory) else {
            return inside(candidate.resolvingSymlinksInPath()) ? .missing : .forbidden
        }
        if isDirectory.boolValue {
            guard path.hasSuffix("/") else { return .redirect(rawPath + "/") }
            candidate.appendPathComponent(SiteLayout.folderIndex)
        }
        let resolved = candidate.resolvingSymlinksInPath()
        guard inside(resolved) else { return .forbidden }
        guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory), !isDirectory.boolValue
        else {
            return .missing
        }
        return .file(resolved)
    }

    private func inside(_ url: URL) -> Bool {
        let path = url.standardizedFileURL.path
        return path == root.path || path.hasPrefix(root.path + "/")
    }
}
