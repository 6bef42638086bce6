import Crypto
import Foundation

/// The site's own secret: the key of the unguessable tokens in unlisted albums' links.
///
/// A token is an HMAC-SHA256 of what it names under this key, so the same album keeps the same link
/// from build to build (and from machine to machine, given the same secret), and nobody without the
/// secret can work a token out from an album's name or a photo's id. The secret comes from the
/// environment (`GALLERYSSG_SECRET`, for CI) or a file in the state folder (`SiteSecretFile`).
public struct SiteSecret: Sendable {
    /// The key's bytes (swift-crypto's `SymmetricKey` is not `Sendable`; one is made per token).
    private let key: [UInt8]

    /// Characters of a token: 20 base32 characters, 100 bits.
    package static let tokenLength = 20

    package init(bytes: some DataProtocol) {
        key = Array(bytes)
    }

    /// `purpose` keeps tokens for different things apart (an album's path, a photo's id).
    package func token(_ purpose: String, _ value: String) -> String {
        var message = Data(purpose.utf8)
        message.append(0)
        message.append(Data(value.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        return Self.base32(Array(mac)).prefix(Self.tokenLength).description
    }

    /// Lower-case RFC 4648 base32 without padding: letters and digits 2–7, safe in any URL and file name.
    private static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var text = ""
        var buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                text.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { text.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return text
    }
}
