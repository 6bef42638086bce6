import ArgumentParser
import Foundation
import GalleryPipeline

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Start a new site: a config, a photos folder, source examples and the default templates.",
        discussion: """
            Existing files are never overwritten unless --force is given. Exit status: 0 created, 1 \
            failed, 2 bad arguments.

            Examples:
              galleryssg init my-gallery
                  A new site: my-gallery/site-config.json, photos/, templates/ and more.
              galleryssg init my-gallery --force
                  Write them again, overwriting (say, to get the default theme back).
            """
    )

    @Argument(help: "The folder to create the site in.")
    var folder: String = "."

    @Flag(help: "Overwrite files that already exist.")
    var force = false

    func run() async throws {
        let cwd = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let target = URL(fileURLWithPath: folder, relativeTo: cwd).standardizedFileURL
        do {
            let written = try SiteScaffold.write(into: target, force: force)
            Terminal.info("created \(written.count) files in \(target.path)")
            let cd = folder == "." ? "" : "cd \(folder) && "
            Terminal.info(
                "next: put photos in \(folder == "." ? "" : folder + "/")photos/, then run: \(cd)galleryssg serve --watch"
            )
        } catch {
            Terminal.error("\(error)")
            throw ExitCode(1)
        }
    }
}
