import Foundation

/// The site's own secret: the key of the unguessable tokens in unlisted and protected albums' links.
///
/// A token is an HMAC-SHA256 of what it names under this key, so the same album keeps the same link
/// from build to build (and from machine to machine, given the same secret), and nobody without the
/// secret can work a token out from an album's name or a photo's id. The secret comes from the
/// environment (`GALLERYSSG_SECRET`, for CI) or a file in the state folder (`SiteSecretFile`).
package struct SiteSecret: Sendable {
    private let key: [UInt8]

    /// Characters of a token: 20 base32 characters, 100 bits.
    package static let tokenLength = 20

    package init(bytes: some DataProtocol) {
        key = Array(bytes)
    }

    /// `purpose` keeps tokens for different things apart (an album's path, a photo's id).
    package func token(_ purpose: String, _ value: String) -> String {
        let mac = VaultCrypto.hmacSHA256(key: key, Array(purpose.utf8) + [0] + Array(value.utf8))
        return String(ContentKey.base32(mac).prefix(Self.tokenLength))
    }
}
