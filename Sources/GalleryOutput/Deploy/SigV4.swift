import Crypto
import Foundation

/// AWS Signature Version 4: the `Authorization` header S3 and every S3-compatible store check.
///
/// Follows https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html and is
/// checked against AWS's published test suite (Tests/Fixtures/sigv4). Paths are encoded once and
/// never normalised, as S3 requires (the generic services' double encoding does not apply).
package struct SigV4: Sendable {
    /// An access key pair and, for temporary credentials, the session token.
    package struct Keys: Sendable, Equatable {
        package var accessKeyID: String
        package var secretAccessKey: String
        package var sessionToken: String?

        package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil) {
            self.accessKeyID = accessKeyID
            self.secretAccessKey = secretAccessKey
            self.sessionToken = sessionToken
        }
    }

    /// What is signed: the method, the unencoded path and query, the headers and the body's SHA-256.
    package struct Request: Sendable {
        package var method: String
        /// The path as the object key spells it, not yet percent-encoded; starts with `/`.
        package var path: String
        /// Query parameters, unencoded, in any order.
        package var query: [(name: String, value: String)]
        /// Every header to sign (at least `host` and `x-amz-date`), in any case and order.
        package var headers: [(name: String, value: String)]
        /// Lowercase hex SHA-256 of the body (`UNSIGNED-PAYLOAD` is allowed by S3 but not used here).
        package var payloadHash: String

        package init(
            method: String, path: String, query: [(name: String, value: String)],
            headers: [(name: String, value: String)], payloadHash: String
        ) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    package let keys: Keys
    package let region: String
    package let service: String

    static let algorithm = "AWS4-HMAC-SHA256"

    /// `20150830T123600Z`: the `x-amz-date` form of `date`, in UTC.
    package static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(
            format: "%04d%02d%02dT%02d%02d%02dZ", parts.year!, parts.month!, parts.day!,
            parts.hour!, parts.minute!, parts.second!)
    }

    /// The headers to send with `request` at `date`: its own plus `x-amz-date`, the session token
    /// when there is one, and `Authorization`.
    package func sign(_ request: Request, at date: Date) -> [(name: String, value: String)] {
        var signed = request
        let stamp = Self.timestamp(date)
        signed.headers.append(("x-amz-date", stamp))
        if let token = keys.sessionToken { signed.headers.append(("x-amz-security-token", token)) }
        return signed.headers + [("Authorization", authorization(signed, timestamp: stamp))]
    }

    /// The `Authorization` header value for a request whose headers already hold `x-amz-date`.
    package func authorization(_ request: Request, timestamp: String) -> String {
        let canonical = canonicalRequest(request)
        let toSign = stringToSign(canonicalRequest: canonical, timestamp: timestamp)
        let key = signingKey(day: String(timestamp.prefix(8)))
        let signature = HMAC<SHA256>.authenticationCode(for: Data(toSign.utf8), using: key)
        return "\(Self.algorithm) Credential=\(keys.accessKeyID)/\(scope(day: String(timestamp.prefix(8)))), "
            + "SignedHeaders=\(signedHeaders(request)), Signature=\(Self.hex(signature))"
    }

    /// Method, encoded path, sorted query, canonical headers, signed header names and payload hash.
    package func canonicalRequest(_ request: Request) -> String {
        let encoded: [(name: String, value: String)] = request.query.map {
            (Self.encode($0.name, keepSlash: false), Self.encode($0.value, keepSlash: false))
        }
        let query = encoded.sorted { $0.name == $1.name ? $0.value < $1.value : $0.name < $1.name }
            .map { $0.name + "=" + $0.value }
            .joined(separator: "&")
        let headers = canonicalHeaders(request).map { "\($0.name):\($0.value)\n" }.joined()
        return [
            request.method, Self.encode(request.path, keepSlash: true), query, headers, signedHeaders(request),
            request.payloadHash
        ].joined(separator: "\n")
    }

    package func stringToSign(canonicalRequest: String, timestamp: String) -> String {
        [
            Self.algorithm, timestamp, scope(day: String(timestamp.prefix(8))),
            Self.hex(SHA256.hash(data: Data(canonicalRequest.utf8)))
        ].joined(separator: "\n")
    }

    private func scope(day: String) -> String { "\(day)/\(region)/\(service)/aws4_request" }

    private func signingKey(day: String) -> SymmetricKey {
        var key = SymmetricKey(data: Data("AWS4\(keys.secretAccessKey)".utf8))
        for part in [day, region, service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// Lowercased names, trimmed values with inner runs of spaces collapsed, repeated names joined by commas.
    private func canonicalHeaders(_ request: Request) -> [(name: String, value: String)] {
        var merged: [String: [String]] = [:]
        for (name, value) in request.headers {
            let collapsed = value.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
            merged[name.lowercased(), default: []].append(collapsed.trimmingCharacters(in: .whitespaces))
        }
        return merged.keys.sorted().map { ($0, merged[$0]!.joined(separator: ",")) }
    }

    private func signedHeaders(_ request: Request) -> String {
        canonicalHeaders(request).map(\.name).joined(separator: ";")
    }

    /// RFC 3986 percent-encoding of every byte but the unreserved ones (and `/` in paths), upper-case hex.
    package static func encode(_ text: String, keepSlash: Bool) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                result += "/"
            default:
                result += String(format: "%%%02X", byte)
            }
        }
        return result
    }

    package static func hex<D: Sequence>(_ bytes: D) -> String where D.Element == UInt8 {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    package init(keys: Keys, region: String, service: String) {
        self.keys = keys
        self.region = region
        self.service = service
    }
}
