import ArgumentParser
import Foundation
import GalleryPipeline

struct CleanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clean",
        abstract: "Remove the site's output folder and its state folder (build state and every cache).",
        discussion: """
            Only files galleryssg wrote are removed from the output; a folder holding others is kept \
            and named. The next build is a full build. Exit status: 0 cleaned, 1 failed (a build is \
            running, or a folder could not be removed), 2 bad config or arguments.

            Examples:
              galleryssg clean
                  Remove the output and the state of ./site-config.json's site.
              galleryssg clean --config my-gallery/site-config.json
                  The same for another site.
            """
    )

    @OptionGroup var config: ConfigOption

    func run() throws {
        try maintain("clean", config: config.path) { site in
            let (removed, kept) = try Maintenance.clean(site)
            for path in removed { Terminal.info("removed \(path)") }
            for line in kept { Terminal.warning(line) }
        }
    }
}
