import Foundation
import GalleryConfig
import GalleryProviders

/// How `Build` reports a skipped photo, the manifest's failures and warnings, and an empty source.
extension Build {
    func announce(_ failure: BuildReport.Failure) {
        let location = failure.location.map { " (\($0))" } ?? ""
        let status = failure.status.map { " [HTTP \($0)]" } ?? ""
        let text = "\(failure.id)\(location): \(failure.stage)\(status): \(failure.reason)"
        progress(failure.otherFile == true ? .notPublished(text) : .skipped(text))
    }

    /// The manifest's entries that name no usable photo, as failures of the `manifest` step, each announced.
    func manifestFailures(_ manifest: Manifest) -> [BuildReport.Failure] {
        let failures = manifest.issues.map {
            BuildReport.Failure(
                id: $0.item, location: $0.location, stage: .manifest, status: nil, reason: $0.reason,
                otherFile: $0.isFile)
        }
        failures.forEach(announce)
        return failures
    }

    /// The manifest's entries published despite a problem with what describes them (an unknown key
    /// in a sidecar), as warnings of the `manifest` step, each announced; `build --strict` fails on them.
    func manifestWarnings(_ manifest: Manifest) -> [BuildReport.Failure] {
        let warnings = manifest.warnings.map {
            BuildReport.Failure(
                id: $0.item, location: $0.location, stage: .manifest, status: nil, reason: $0.reason,
                otherFile: $0.isFile)
        }
        for warning in warnings {
            progress(.warning(warning.line))
        }
        return warnings
    }

    /// Why a source that gave no photo builds an empty site, naming the folder or URL it read and
    /// what to check: a typo in `source.path` otherwise gives an empty gallery and exit status 0.
    func emptySourceWarning(_ provider: any PhotoProvider) -> String {
        let check: String
        switch config.source {
        case .folder:
            check =
                "put JPEG, PNG, WebP, HEIF, AVIF, TIFF or GIF files in it (or in folders inside it), or fix source.path"
        case .manifestFile: check = "add entries to its \"photos\" array, or fix source.path"
        case .manifestURL: check = "check that the URL serves the manifest you expect, or fix source.url"
        default: check = "check the source's settings (the account, album or query may have no public photos)"
        }
        return "no photos found in \(provider.summary); the site will be empty. To fix it, \(check) in "
            + "\(config.configFile.lastPathComponent)"
    }
}
