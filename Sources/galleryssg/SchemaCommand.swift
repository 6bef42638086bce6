import ArgumentParser
import GalleryPipeline

/// `galleryssg schema`: prints the JSON Schema of `site-config.json`.
///
/// Editors complete and check a config against it; `init` writes a copy beside a new config, and
/// this command refreshes that copy after an upgrade.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of site-config.json, for editors to complete and check it.",
        discussion: """
            The schema (draft 2020-12) has every key with its type, default and range. A config \
            names it with "$schema": "./site-config.schema.json", as galleryssg init writes it. \
            Exit status: 0 printed.

            Examples:
              galleryssg schema > site-config.schema.json
                  Refresh this site's copy after upgrading galleryssg.
              galleryssg schema | less
                  Read it: every key, its default and its range.
            """
    )

    func run() {
        Terminal.info(SiteConfigSchema.json)
    }
}
