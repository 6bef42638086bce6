import Foundation
import GalleryKeys
import GalleryModel

/// Where the site's secret (the key of `SiteSecret`, in GalleryVault) comes from: the environment variable `GALLERYSSG_SECRET`
/// when it is set (a CI job keeps it with its other secrets), else `site-secret` in the state folder,
/// made with 256 random bits the first time a build needs it. Unlisted albums' links, and protected
/// albums' folder names, depend on it alone: a new secret gives them new links, and a guessable one
/// lets anyone work them out. So a secret from the environment must look random
/// (`SiteSecretFile.strength`): at least 32 characters and 128 bits of estimated entropy.
package enum SiteSecretFile {
    package static let environmentVariable = "GALLERYSSG_SECRET"
    package static let fileName = "site-secret"
    /// Characters the environment's secret needs at least.
    static let minimumLength = 32
    /// Estimated bits of entropy the environment's secret needs at least (`estimatedBits`).
    static let minimumBits = 128
    /// Bytes the state's file holds at least (it is made with 32).
    static let minimumFileBytes = 32

    /// - Returns: The secret's bytes, and the file they were just made in (nil when it was read or came from the environment).
    /// - Throws: `SiteSecretError`: `.tooShort` or `.weak` for a secret from the environment that is
    ///   short or guessable, `.malformed` or `.unreadable` for the state's file.
    package static func load(
        stateDirectory: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> (secret: [UInt8], created: URL?) {
        // Set but empty is unset: what a CI job passes for a secret it was never given.
        if let text = environment[environmentVariable], !text.isEmpty {
            try check(text)
            return (Array(text.utf8), nil)
        }
        let file = stateDirectory.appendingPathComponent(fileName)
        if FileManager.default.fileExists(atPath: file.path) {
            let text: String
            do {
                try PrivateFolder.restrict(file.path, to: PrivateFolder.fileMode)  // an earlier galleryssg's 0644
                text = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw SiteSecretError.unreadable(path: file.path, reason: "\(error.localizedDescription)")
            }
            let hex = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let bytes = hexBytes(hex), bytes.count >= minimumFileBytes, estimatedBits(hex) >= Double(minimumBits)
            else {
                throw SiteSecretError.malformed(path: file.path)
            }
            return (bytes, nil)
        }
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let hex = bytes.map { String(format: "%02x", $0) }.joined() + "\n"
        do {
            try PrivateFolder.make(stateDirectory)
            guard
                FileManager.default.createFile(
                    atPath: file.path, contents: Data(hex.utf8),
                    attributes: [.posixPermissions: PrivateFolder.fileMode])
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
    /// Long enough, but repeated, sequential or of few characters: `bits` estimated.
    case weak(length: Int, bits: Int)
    case unreadable(path: String, reason: String)
    case malformed(path: String)

    /// How to make a secret that passes: 256 random bits.
    static let howToMake =
        "Make one with: openssl rand -base64 32 (keep it with the CI job's secrets), or unset "
        + "\(SiteSecretFile.environmentVariable) to use the state's site-secret file, which galleryssg makes"

    package var description: String {
        switch self {
        case .tooShort(let length):
            "\(SiteSecretFile.environmentVariable) has \(length) characters; it needs at least \(SiteSecretFile.minimumLength) "
                + "and \(SiteSecretFile.minimumBits) bits of entropy. " + Self.howToMake
        case .weak(let length, let bits):
            "\(SiteSecretFile.environmentVariable) has \(length) characters but only about \(bits) bits of estimated "
                + "entropy (repeated, sequential or few different characters are easy to guess); it needs at least "
                + "\(SiteSecretFile.minimumLength) characters and \(SiteSecretFile.minimumBits) bits. " + Self.howToMake
        case .unreadable(let path, let reason):
            "the site secret \(path) \(reason); unlisted albums' links depend on it"
        case .malformed(let path):
            "the site secret \(path) is not \(SiteSecretFile.minimumFileBytes) or more random hex-encoded bytes; restore it "
                + "from a backup, or delete it to make a new one (unlisted and protected albums then get new links)"
        }
    }
}
