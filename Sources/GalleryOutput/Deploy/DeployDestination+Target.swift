import Foundation
import GalleryConfig
import GalleryModel

extension DeployDestination {
    /// The target to deploy to; an S3 target takes its keys from `environment`.
    /// - Parameters:
    ///   - network: Timeouts, retries and connections per host (the config's `network`).
    ///   - stateFolder: Where a folder target records what it holds (`FolderTarget.record`).
    /// - Throws: `DeployError` when S3 keys are missing.
    public func makeTarget(environment: [String: String], network: NetworkSettings, stateFolder: URL? = nil) throws
        -> any DeployTarget
    {
        switch self {
        case .folder(let folder):
            let record = stateFolder.map { state in
                let name = Digest.sha256(Data(folder.standardizedFileURL.path.utf8)).description
                return state.appendingPathComponent("deployed").appendingPathComponent(name)
            }
            return FolderTarget(folder: folder, record: record)
        case .s3(let location):
            return S3Target(location: location, keys: try S3Target.keys(from: environment), network: network)
        }
    }

    /// The values of `environment` that a deploy must never print: the S3 keys and token.
    public static func secrets(in environment: [String: String]) -> [String] {
        ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"].compactMap { environment[$0] }.filter {
            !$0.isEmpty
        }
    }
}
