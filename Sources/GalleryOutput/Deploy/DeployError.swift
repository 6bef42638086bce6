import Foundation
import GalleryModel

/// A deploy that could not go on: bad target, refused credentials, a request or file that failed.
///
/// Messages name the target and the object, and never carry a secret: the `Deployer` passes every
/// message through `Credentials.redact` before it leaves the deploy code.
///
/// Callers that act on the problem switch on `kind`, never on the words.
package struct DeployError: KindedError {
    package enum Kind: Sendable, Equatable {
        /// A target address or setting that cannot be used.
        case target
        /// A folder target holds files galleryssg did not deploy there; nothing was sent.
        case foreignFiles
        /// The target refused the credentials (wrong key, bad signature, expired token), or there are none.
        case credentials
        /// A request the target answered with an error, or that never got an answer.
        case request
        /// A file of the built site that could not be read, or a folder target that could not be written.
        case local
        /// A phase of the deploy stopped after another failure; the words say what is online now.
        case stopped
    }

    package let kind: Kind
    /// The object, file or target the problem is about.
    package let location: String
    package let reason: String

    private init(_ kind: Kind, _ location: String, _ reason: String) {
        self.kind = kind
        self.location = location
        self.reason = reason
    }

    package var description: String { location.isEmpty ? reason : "\(location): \(reason)" }

    /// A target address or setting that cannot be used.
    package static func target(_ location: String, _ reason: String) -> DeployError {
        DeployError(.target, location, reason)
    }

    /// The target refused who we are (wrong key, bad signature, expired token); `reason` names the variables to check.
    package static func credentials(_ location: String, _ reason: String) -> DeployError {
        DeployError(.credentials, location, reason)
    }

    /// A request the target answered with an error, or that never got an answer.
    package static func request(_ location: String, _ reason: String) -> DeployError {
        DeployError(.request, location, reason)
    }

    /// A request that failed every one of its `attempts` (`S3RetryPolicy.maxAttempts`); `last` is the last failure.
    package static func attemptsSpent(_ last: DeployError, attempts: Int) -> DeployError {
        DeployError(.request, last.location, "\(last.reason) (gave up after \(attempts) attempts)")
    }

    /// A retryable failure not retried because the deploy's retry budget (`RetryBudget`) is spent.
    package static func retryBudgetSpent(_ last: DeployError, retries: Int) -> DeployError {
        DeployError(
            .request, last.location,
            "\(last.reason) (not retried: this deploy's retry budget is spent after \(retries) retries; "
                + "the store keeps failing, deploy again later)")
    }

    /// A file of the built site that could not be read, or a folder target that could not be written.
    package static func local(_ location: String, _ reason: String) -> DeployError {
        DeployError(.local, location, reason)
    }

    /// A folder target holds files galleryssg did not deploy there, which a deploy would replace or delete.
    package static func foreignFiles(_ folder: String, _ keys: [String]) -> DeployError {
        DeployError(
            .foreignFiles, folder,
            "the target folder holds \(keys.count) \(keys.count == 1 ? "file" : "files") galleryssg "
                + "did not deploy there: \(OutputError.list(keys)). Nothing was sent: a deploy deletes what the site "
                + "does not have. Deploy to a new or empty folder, or move \(keys.count == 1 ? "it" : "them") away")
    }

    /// A phase stopped after `failure`, with what it means for the published site.
    package static func stopped(after failure: Error, _ consequence: String) -> DeployError {
        DeployError(.stopped, "", "\(failure); \(consequence)")
    }

    /// The same error with `transform` applied to its text (to redact secrets).
    package func mapText(_ transform: (String) -> String) -> DeployError {
        DeployError(kind, transform(location), transform(reason))
    }
}
