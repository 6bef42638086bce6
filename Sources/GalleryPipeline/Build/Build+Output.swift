import Foundation
import GalleryConfig
import GalleryOutput
import GalleryStore

/// What a build needs to know about its output folder before it writes there.
extension Build {
    /// Whether the site's state recorded a build, so an output without a marker but with a site's
    /// files is one an earlier galleryssg built (`OutputFolder.claim`). Opens an existing state only.
    var stateRecordsBuilds: Bool { Self.lastRecordedBuild(config) != nil }

    /// The state's number for the last build it recorded; nil when there is no state or no build.
    /// Opens an existing state only.
    package static func lastRecordedBuild(_ config: SiteConfig) -> Int64? {
        guard FileManager.default.fileExists(atPath: StateDatabase.file(in: config.stateDirectory).path) else {
            return nil
        }
        return (try? StateDatabase.open(folder: config.stateDirectory, recover: false).lastBuildID()) ?? nil
    }

    /// Whether the output folder holds a site a failed build left as it was (for the CLI's message).
    public static func hasPublishedSite(_ config: SiteConfig) -> Bool {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: config.output.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else {
            return false
        }
        return SiteMarker.read(in: config.output) != nil
            || FileManager.default.fileExists(atPath: config.output.appendingPathComponent("index.html").path)
    }
}

extension SiteConfig {
    /// Where the state keeps what galleryssg knows of the site folders it built (`SiteBook`).
    package var siteBook: SiteBook { SiteBook(stateDirectory: stateDirectory) }

    /// Folders the output must keep clear of, each named as the config names it.
    package var protectedFolders: [OutputFolder.Protected] {
        var folders = [
            OutputFolder.Protected("the folder of the config file", siteDirectory, outputMayBeInside: true),
            OutputFolder.Protected("the templates folder (\"templates\")", templates),
            OutputFolder.Protected("the state folder (\"state\")", stateDirectory),
            OutputFolder.Protected("the cache folder (\"cache\")", cacheDirectory)
        ]
        switch source {
        case .folder(let folder): folders.append(OutputFolder.Protected("the photos folder (\"source.path\")", folder))
        case .manifestFile(let file):
            folders.append(
                OutputFolder.Protected(
                    "the manifest's folder (\"source.path\")", file.deletingLastPathComponent(),
                    outputMayBeInside: true))
        case .manifestURL, .flickr, .fiveHundredPx, .parse, .immich: break
        }
        return folders
    }
}
