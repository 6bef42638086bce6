import Foundation

/// Photos from a local folder of JPEG and PNG files, searched recursively.
///
/// A photo's album is the subfolder it sits in (a path such as `2024/Iceland/Day 1`), its title comes
/// from the file name, and its id is a slug of its relative path so that it stays stable between
/// builds. Hidden files and folders are ignored; files are taken in path order for determinism.
public struct FolderProvider: PhotoProvider {
    public let folder: URL
    static let extensions: Set<String> = ["jpg", "jpeg", "jpe", "png"]

    public init(folder: URL) {
        self.folder = folder
    }

    public var summary: String { "folder \(folder.path)" }

    public func fetchManifest() async throws -> Manifest {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ProviderError.unreadable(folder.path, "folder not found; check source.path in the config")
        }
        let root = folder.standardizedFileURL.path
        var files: [String] = []
        let keys: [URLResourceKey] = [.isRegularFileKey]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys,
                                                          options: [.skipsHiddenFiles]) else {
            throw ProviderError.unreadable(folder.path, "folder could not be listed; check its permissions")
        }
        for case let url as URL in walker {
            guard Self.extensions.contains(url.pathExtension.lowercased()),
                  (try? url.resourceValues(forKeys: Set(keys)))?.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(root + "/") else { continue }
            files.append(String(path.dropFirst(root.count + 1)))
        }
        files.sort()

        var used: Set<String> = []
        let photos = files.map { relative -> Photo in
            let components = relative.split(separator: "/").map(String.init)
            let name = (components.last! as NSString).deletingPathExtension
            var id = PhotoID.slug((relative as NSString).deletingPathExtension)
            if used.contains(id) {
                var counter = 2
                while used.contains("\(id)-\(counter)") { counter += 1 }
                id = "\(id)-\(counter)"
            }
            used.insert(id)
            let album = components.count > 1 ? components.dropLast().joined(separator: "/") : nil
            var photo = Photo(id: id, album: album, image: .file(folder.appendingPathComponent(relative)))
            photo.fallbackTitle = Self.title(fromFileName: name)
            return photo
        }
        var manifest = Manifest(photos: photos)
        PhotoSidecar.applyAll(to: &manifest, root: folder)   // issue12-metadata hook; the lead folds it into the walk
        return manifest
    }

    /// `IMG_2041-beach` becomes `IMG 2041 beach`.
    static func title(fromFileName name: String) -> String {
        name.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
            .split(separator: " ").joined(separator: " ")
    }
}
