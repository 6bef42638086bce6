import Foundation
import GalleryConfig

extension DeployDestination {
    /// The target to deploy to; an S3 target takes its keys from `environment`.
    /// - Parameter network: Timeouts, retries and connections per host (the config's `network`).
    /// - Throws: `DeployError` when S3 keys are missing.
    public func makeTarget(environment: [String: String], network: NetworkSettings) throws -> any DeployTarget {
        switch self {
        case .folder(let folder): return FolderTarget(folder: folder)
        case .s3(let location): return S3Target(location: location, keys: try S3Target.keys(from: environment), network: network)
        }
    }

    /// The values of `environment` that a deploy must never print: the S3 keys and token.
    public static func secrets(in environment: [String: String]) -> [String] {
        ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"].compactMap { environment[$0] }.filter { !$0.isEmpty }
    }
}
