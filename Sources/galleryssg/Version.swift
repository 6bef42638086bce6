import CBuildInfo

/// What `galleryssg --version` prints: the version and the commit the binary was built from.
///
/// SwiftPM has no way to pass a string into a build, so the version is a constant here (bump it
/// with a release) and the commit comes from the C function `galleryssg_build_commit`, which
/// `Scripts/package.sh` overrides at link time with one that returns `git rev-parse --short HEAD`.
/// Builds made with plain `swift build` say "commit unknown".
enum Version {
    static let number = "0.1.0"

    static var commit: String {
        let commit = String(cString: galleryssg_build_commit())
        return commit.isEmpty ? "unknown" : commit
    }

    /// For example `galleryssg 0.1.0 (commit 0ec1d36)`.
    static var description: String { "galleryssg \(number) (commit \(commit))" }
}
