import Foundation

/// Leaflet and Leaflet.markercluster, which the map page uses, taken from Debian's `libjs-leaflet`
/// and `libjs-leaflet.markercluster` at build time (never kept in the repository) and published
/// under `static/leaflet/` with their licences.
///
/// Only a site with `images.showLocation` has a map page, so only such a site needs the packages.
package enum MapLibrary {
    /// Where Debian installs browser libraries.
    static let defaultRoot = URL(fileURLWithPath: "/usr/share")

    /// A file to publish: its place under the root, where it goes in the site, and its package.
    package struct File: Sendable {
        package var source: String
        package var target: String
        package var package: String
    }

    package static let files: [File] =
        [
            File(
                source: "javascript/leaflet/leaflet.min.js", target: "static/leaflet/leaflet.js",
                package: "libjs-leaflet"),
            File(
                source: "javascript/leaflet/leaflet.css", target: "static/leaflet/leaflet.css", package: "libjs-leaflet"
            ),
            File(
                source: "doc/libjs-leaflet/copyright", target: "static/leaflet/LICENSE-leaflet.txt",
                package: "libjs-leaflet")
        ]
        + ["layers.png", "layers-2x.png", "marker-icon.png", "marker-icon-2x.png", "marker-shadow.png"].map {
            File(
                source: "javascript/leaflet/images/\($0)", target: "static/leaflet/images/\($0)",
                package: "libjs-leaflet")
        } + [
            File(
                source: "javascript/leaflet/leaflet.markercluster.min.js", target: "static/leaflet/markercluster.js",
                package: "libjs-leaflet.markercluster"),
            File(
                source: "javascript/leaflet/MarkerCluster.css", target: "static/leaflet/MarkerCluster.css",
                package: "libjs-leaflet.markercluster"),
            File(
                source: "javascript/leaflet/MarkerCluster.Default.css",
                target: "static/leaflet/MarkerCluster.Default.css",
                package: "libjs-leaflet.markercluster"),
            File(
                source: "doc/libjs-leaflet.markercluster/copyright", target: "static/leaflet/LICENSE-markercluster.txt",
                package: "libjs-leaflet.markercluster")
        ]

    /// The files to add to the theme's static files: none unless `needed`.
    /// - Throws: `MapLibraryError` naming the missing file and the package to install.
    package static func staticFiles(needed: Bool, root: URL = defaultRoot) throws -> [String: Data] {
        guard needed else { return [:] }
        var result: [String: Data] = [:]
        for file in files {
            let path = root.appendingPathComponent(file.source).path
            guard let data = FileManager.default.contents(atPath: path) else {
                throw MapLibraryError(path: path, package: file.package)
            }
            result[file.target] = data
        }
        return result
    }
}

/// A file of the map's libraries is missing: the error says which Debian package to install.
package struct MapLibraryError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let package: String

    package var description: String {
        "\(path) is missing: the map page (images.showLocation) needs Debian's \(package) package; "
            + "install it with apt-get install libjs-leaflet libjs-leaflet.markercluster, or turn images.showLocation off"
    }
}
