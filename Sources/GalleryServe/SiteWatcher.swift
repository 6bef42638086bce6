import Foundation
import GalleryConfig

/// Watches the files a build reads and calls back once a change has settled.
///
/// It polls modification times and sizes every quarter second, which works on every file system
/// (inotify misses changes on network and container mounts) and costs a few `stat` calls per file.
/// A change is acted on after the tree has been quiet for `settle`, so an editor's save-and-rename
/// or a batch of copied photos triggers one rebuild, not many.
package struct SiteWatcher: Sendable {
    /// Files and folders to watch.
    package let paths: [URL]
    /// Folders never looked into (the output, the state folder).
    package let ignored: [URL]
    var interval: Duration = .milliseconds(250)
    package var settle: Duration = .milliseconds(300)

    package init(paths: [URL], ignored: [URL]) {
        self.paths = paths.map(\.standardizedFileURL)
        self.ignored = ignored.map(\.standardizedFileURL)
    }

    /// What a site's build reads: its config, its templates folder and a local source.
    package init(config: SiteConfig) {
        var paths = [config.configFile, config.templates]
        switch config.source {
        case .folder(let folder): paths.append(folder)
        case .manifestFile(let file): paths.append(file.deletingLastPathComponent())
        default: break
        }
        self.init(paths: paths, ignored: [config.output, config.stateDirectory, config.cacheDirectory])
    }

    package struct Stamp: Equatable {
        package var modified: Date
        package var size: Int
    }

    /// Every watched file's modification time and size; hidden files and ignored folders are skipped.
    package func snapshot() -> [String: Stamp] {
        var stamps: [String: Stamp] = [:]
        let keys: [URLResourceKey] = [.contentModificationDateKey, .fileSizeKey, .isDirectoryKey]
        func record(_ url: URL) {
            guard let values = try? url.resourceValues(forKeys: Set(keys)), values.isDirectory != true else { return }
            stamps[url.path] = Stamp(
                modified: values.contentModificationDate ?? .distantPast, size: values.fileSize ?? 0)
        }
        let ignoredPaths = ignored.map(\.path)
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path.path, isDirectory: &isDirectory) else { continue }
            guard isDirectory.boolValue else {
                record(path)
                continue
            }
            let walker = FileManager.default.enumerator(
                at: path, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles])
            while let url = walker?.nextObject() as? URL {
                if ignoredPaths.contains(url.standardizedFileURL.path) {
                    walker?.skipDescendants()
                    continue
                }
                record(url)
            }
        }
        return stamps
    }

    /// Calls `changed` after every settled change, until the task is cancelled.
    package func run(_ changed: @Sendable () async -> Void) async {
        var last = snapshot()
        while !Task.isCancelled {
            try? await Task.sleep(for: interval)
            var current = snapshot()
            guard current != last else { continue }
            while !Task.isCancelled {
                try? await Task.sleep(for: settle)
                let next = snapshot()
                if next == current { break }
                current = next
            }
            guard !Task.isCancelled else { return }
            last = current  // changes made during the rebuild are seen on the next pass
            await changed()
        }
    }
}
