import ArgumentParser
import GalleryPipeline

/// `-c, --config FILE`, as every command that works on a site takes it (`@OptionGroup var config`).
struct ConfigOption: ParsableArguments {
    @Option(
        name: [.customShort("c"), .customLong("config")],
        help: ArgumentHelp("The site's config file.", valueName: "config"))
    var path: String = SiteConfig.Defaults.fileName
}
