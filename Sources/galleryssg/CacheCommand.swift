import ArgumentParser
import Foundation
import GalleryPipeline

struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Inspect or trim the site's caches.",
        discussion: """
            Examples:
              galleryssg cache stats
                  Show the caches' files, their size and the hit rates of the last builds.
              galleryssg cache gc
                  Remove the cached files that nothing in the state uses any more.
            """,
        subcommands: [CacheStatsCommand.self, CacheGCCommand.self]
    )
}

struct CacheStatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Show the number of photos in the state, the files and bytes of each cache, and hit rates.",
        discussion: """
            Exit status: 0 shown, 1 failed (the state could not be read), 2 bad config or arguments.

            Examples:
              galleryssg cache stats
                  The caches of ./site-config.json's site.
              galleryssg cache stats --config my-gallery/site-config.json
                  The caches of another site.
            """
    )

    @OptionGroup var config: ConfigOption

    func run() throws {
        try maintain("cache stats", config: config.path) { site in
            Terminal.info("\(try Maintenance.cacheStats(site))")
        }
    }
}

struct CacheGCCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gc",
        abstract: "Remove cached files that no photo or page of the last build uses.",
        discussion: """
            Exit status: 0 trimmed, 1 failed (a build is running, or a file could not be removed), 2 bad \
            config or arguments.

            Examples:
              galleryssg cache gc
                  Trim the caches, say after changing the image settings.
              galleryssg cache stats && galleryssg cache gc
                  See what is unused, then remove it.
            """
    )

    @OptionGroup var config: ConfigOption

    func run() throws {
        try maintain("cache gc", config: config.path) { site in
            for cache in try Maintenance.collectGarbage(site) {
                Terminal.info("\(cache.name): removed \(cache.files) files, \(ByteCount.text(cache.bytes))")
            }
        }
    }
}
