import ArgumentParser
import GalleryPipeline

/// `galleryssg rekey ALBUM`: a new content key for a protected album at the next build.
struct RekeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rekey",
        abstract:
            "Give a protected album (or a site with a password) a new key: the next build encrypts all of its files again.",
        discussion: """
            A new password only wraps the album's key again, so files a reader saved stay readable \
            with a key they kept. Rekeying makes a new key: every file of the album is encrypted \
            again, under new names, and readers are asked for the password again. Exit status: 0 \
            done, 1 failed (a build is running, or the album has no key yet), 2 bad config or arguments.
            --site does the same for a site whose config sets password or passwordEnv.

            Examples:
              galleryssg rekey Family
                  The album Family gets a new key at the next galleryssg build.
              galleryssg rekey "2024/Wedding" --config my-gallery/site-config.json
                  The same for a nested album of another site.
              galleryssg rekey --site
                  The whole site (its config sets a password) gets a new key.
            """
    )

    @Argument(help: "The protected album's path, as in its folder or the manifest's albums (Family, 2024/Wedding).")
    var album: String?

    @Flag(help: "Rekey the whole site (its config sets password or passwordEnv) instead of an album.")
    var site = false

    @OptionGroup var config: ConfigOption

    func validate() throws {
        guard (album == nil) == site else {
            throw ValidationError("name one protected album, or --site for the whole site")
        }
    }

    func run() throws {
        var missing: String?
        try maintain("rekey", config: config.path) { site in
            guard let album else {
                if try Maintenance.rekeySite(site) {
                    Terminal.info(
                        "the site's key is gone from the state; the next build encrypts the whole site again under a new key"
                    )
                } else {
                    missing =
                        "the site has no key in \(site.stateDirectory.path): no build with a site password has run yet"
                }
                return
            }
            if try Maintenance.rekey(site, album: album) {
                Terminal.info(
                    "\(album): its key is gone from the state; the next build encrypts the album again under a new key")
                return
            }
            let known = try Maintenance.protectedAlbums(site)
            missing =
                "\(album) has no key in \(site.stateDirectory.path): "
                + (known.isEmpty
                    ? "no protected album has been built yet"
                    : "the protected albums are \(known.joined(separator: ", "))")
        }
        if let missing {
            Terminal.error(missing)
            throw ExitCode(1)
        }
    }
}
