import Crypto
import Foundation
import GalleryOutput
import Testing

/// AWS's published SigV4 test suite (Tests/Fixtures/sigv4, see its CREDITS): for each request, the
/// canonical request, the string to sign and the Authorization header must match byte for byte.
@Suite("SigV4 signing")
struct SigV4Tests {
    static let cases = [
        "get-vanilla", "get-vanilla-query-order-key-case", "get-vanilla-query-unreserved", "get-vanilla-utf8-query",
        "get-unreserved", "get-utf8", "get-space", "get-header-value-trim", "get-header-key-duplicate",
        "post-vanilla-query", "post-x-www-form-urlencoded", "post-header-key-sort"
    ]

    static let signer = SigV4(
        keys: .init(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
        region: "us-east-1", service: "service")

    @Test(arguments: cases)
    func matchesTheTestSuite(_ name: String) throws {
        let folder = "sigv4/\(name)/\(name)"
        let request = try Self.request(String(decoding: try Fixtures.data(folder + ".req"), as: UTF8.self))
        let timestamp = try #require(request.headers.first { $0.name.lowercased() == "x-amz-date" }?.value)
        let canonical = Self.signer.canonicalRequest(request)
        #expect(canonical == String(decoding: try Fixtures.data(folder + ".creq"), as: UTF8.self))
        #expect(
            Self.signer.stringToSign(canonicalRequest: canonical, timestamp: timestamp)
                == String(decoding: try Fixtures.data(folder + ".sts"), as: UTF8.self))
        #expect(
            Self.signer.authorization(request, timestamp: timestamp)
                == String(decoding: try Fixtures.data(folder + ".authz"), as: UTF8.self))
    }

    @Test func signAddsTheDateTheTokenAndTheAuthorization() throws {
        var keys = Self.signer.keys
        keys.sessionToken = "token-value"
        let signer = SigV4(keys: keys, region: "us-east-1", service: "s3")
        let request = SigV4.Request(
            method: "GET", path: "/bucket", query: [], headers: [("host", "127.0.0.1:9000")],
            payloadHash: SigV4.hex(Data().sha256Digest))
        let headers = signer.sign(request, at: Date(timeIntervalSince1970: 1_440_938_160))
        #expect(headers.first { $0.name == "x-amz-date" }?.value == "20150830T123600Z")
        #expect(headers.first { $0.name == "x-amz-security-token" }?.value == "token-value")
        let authorization = try #require(headers.first { $0.name == "Authorization" }?.value)
        #expect(
            authorization.hasPrefix(
                "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/s3/aws4_request, "
                    + "SignedHeaders=host;x-amz-date;x-amz-security-token, Signature="))
    }

    /// Reads a `.req` file: the request line, header lines (a line starting with whitespace continues
    /// the previous value), a blank line and the body.
    static func request(_ text: String) throws -> SigV4.Request {
        let parts = text.components(separatedBy: "\n\n")
        let lines = parts[0].components(separatedBy: "\n")
        let requestLine = lines[0].components(separatedBy: " ")
        let method = requestLine[0]
        let target = requestLine[1..<(requestLine.count - 1)].joined(separator: " ")
        let pathAndQuery = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query: [(name: String, value: String)] =
            pathAndQuery.count > 1
            ? pathAndQuery[1].split(separator: "&").map {
                let pair = $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(pair[0]), pair.count > 1 ? String(pair[1]) : "")
            } : []
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            let colon = try #require(line.firstIndex(of: ":"))
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
        }
        let body = Data((parts.count > 1 ? parts[1...].joined(separator: "\n\n") : "").utf8)
        return SigV4.Request(
            method: method, path: String(pathAndQuery[0]), query: query, headers: headers,
            payloadHash: SigV4.hex(body.sha256Digest))
    }
}

private extension Data {
    var sha256Digest: [UInt8] { Array(SHA256.hash(data: self)) }
}
