import Foundation
import GalleryModel

/// Where the site's secret (the key of `SiteSecret`, in GalleryVault) comes from: the environment variable `GALLERYSSG_SECRET`
/// when it is set (a CI job keeps it with its other secrets), else `site-secret` in the state folder,
/// made with 256 random bits the first time a build needs it. Unlisted albums' links depend on it:
/// a new secret gives them new links.
package enum SiteSecretFile {
    package static let environmentVariable = "GALLERYSSG_SECRET"
    package static let fileName = "site-secret"
    /// Characters the environment's secret needs at least.
    package static let minimumLength = 16

    /// - Returns: The secret's bytes, and the file they were just made in (nil when it was read or came from the environment).
    package static func load(
        stateDirectory: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (secret: [UInt8], created: URL?) {
        if let text = environment[environmentVariable] {
            guard text.count >= minimumLength else { throw SiteSecretError.tooShort(length: text.count) }
            return (Array(text.utf8), nil)
        }
        let file = stateDirectory.appendingPathComponent(fileName)
        if FileManager.default.fileExists(atPath: file.path) {
            let text: String
            do { text = try String(contentsOf: file, encoding: .utf8) } catch {
                throw SiteSecretError.unreadable(path: file.path, reason: "\(error.localizedDescription)")
            }
            guard let bytes = hexBytes(text.trimmingCharacters(in: .whitespacesAndNewlines)), bytes.count >= 16 else {
                throw SiteSecretError.malformed(path: file.path)
            }
            return (bytes, nil)
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let hex = bytes.map { String(format: "%02x", $0) }.joined() + "\n"
        do {
            try FileManager.default.createDirectory(at: stateDirectory, withIntermediateDirectories: true)
            guard
                FileManager.default.createFile(
                    atPath: file.path, contents: Data(hex.utf8),
                    attributes: [.posixPermissions: 0o600])
            else {
                throw CocoaError(.fileWriteUnknown)
            }
        } catch {
            throw SiteSecretError.unreadable(
                path: file.path, reason: "could not be written: \(error.localizedDescription)")
        }
        return (bytes, file)
    }

    /// The warning a build gives when it made the secret.
    package static func createdNotice(_ file: URL) -> String {
        "made the site secret \(file.path) for unlisted albums' links; keep it with the state (a new secret gives the "
            + "albums new links), and where builds start without the state (CI), set \(environmentVariable) instead"
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else {
                return nil
            }
            bytes.append(byte)
        }
        return bytes
    }
}

/// Why the site's secret could not be had; the words say what to do.
package enum SiteSecretError: Error, Equatable, CustomStringConvertible {
    case tooShort(length: Int)
    case unreadable(path: String, reason: String)
    case malformed(path: String)

    package var description: String {
        switch self {
        case .tooShort(let length):
            "\(SiteSecretFile.environmentVariable) has \(length) characters; give it at least \(SiteSecretFile.minimumLength) "
                + "random ones (e.g. the output of: openssl rand -hex 32)"
        case .unreadable(let path, let reason):
            "the site secret \(path) \(reason); unlisted albums' links depend on it"
        case .malformed(let path):
            "the site secret \(path) is not 32 or more hex-encoded bytes; restore it from a backup, or delete it to make "
                + "a new one (unlisted albums then get new links)"
        }
    }
}
