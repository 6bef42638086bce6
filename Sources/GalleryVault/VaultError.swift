/// Why the vault refused: every word a reader or a build sees about encrypted files is made here.
///
/// `kind` is what callers match on (the browser half, vault.js, has the same codes); `detail`
/// adds what is known, such as the file or the bad value.
package struct VaultError: Error, CustomStringConvertible, Sendable, Equatable {
    package enum Kind: String, Sendable, CaseIterable {
        /// The key file's wrapped key does not open with the key derived from this password.
        case wrongPassword = "wrong-password"
        /// A tag did not match: the bytes were changed, or belong to another file or album.
        case tampered
        /// The file ends early: a header or chunk is cut, or the final chunk is missing.
        case truncated
        /// A format version this code does not read.
        case unknownVersion = "unknown-version"
        /// The key file is not the JSON the format describes.
        case malformedKeyFile = "bad-key-file"
        /// Key-derivation parameters below the floor (600,000 PBKDF2 iterations) or a bad chunk size.
        case weakParameters = "weak-parameters"
        /// A file changed between the two reads of its encryption (its digest, then its chunks).
        case sourceChanged = "source-changed"
    }

    package let kind: Kind
    package let detail: String?

    package init(_ kind: Kind, _ detail: String? = nil) {
        self.kind = kind
        self.detail = detail
    }

    package var description: String {
        let words: String
        switch kind {
        case .wrongPassword: words = "wrong password: the album's key does not open with it"
        case .tampered: words = "the encrypted file was changed or does not belong here; it is refused"
        case .truncated: words = "the encrypted file is cut short; it is refused"
        case .unknownVersion: words = "the encrypted file's format version is not one this galleryssg reads"
        case .malformedKeyFile: words = "the key file is not a galleryssg vault key file"
        case .sourceChanged: words = "the file changed while it was being encrypted; nothing was written"
        case .weakParameters:
            words =
                "the encryption parameters are below the minimum (\(KDFParameters.minimumIterations) PBKDF2 iterations)"
        }
        return detail.map { "\(words) (\($0))" } ?? words
    }
}
