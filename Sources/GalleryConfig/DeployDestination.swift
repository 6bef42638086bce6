import Foundation

/// Where `galleryssg deploy` publishes, resolved from the command line and the config's `deploy` block.
public enum DeployDestination: Sendable, Equatable {
    case s3(S3Location)
    /// A local or mounted folder (`file:///srv/www/photos`).
    case folder(URL)

    /// Reads a target address with its S3 settings.
    /// - Parameters:
    ///   - target: `s3://bucket/prefix` or `file:///absolute/folder`.
    ///   - endpoint: An S3-compatible endpoint such as `https://minio.example:9000`; AWS's regional one when nil.
    ///   - region: The signing region; `us-east-1` when nil.
    ///   - pathStyle: `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`.
    /// - Throws: `DeployDestination.Problem` saying what is wrong with which value; callers name the key or option.
    package static func parse(
        _ target: String, endpoint: String? = nil, region: String? = nil,
        pathStyle: Bool = false
    ) throws -> DeployDestination {
        guard let url = URL(string: target), let scheme = url.scheme?.lowercased() else {
            throw Problem.target(
                "\(quoted(target)) is not a target address such as \"s3://bucket/prefix\" or \"file:///srv/www\"")
        }
        switch scheme {
        case "file":
            guard url.host == nil || url.host == "" || url.host == "localhost", url.path.hasPrefix("/"),
                url.path.count > 1
            else {
                throw Problem.target(
                    "\(quoted(target)) is not a folder address; write an absolute path such as \"file:///srv/www\"")
            }
            return .folder(URL(fileURLWithPath: url.path).standardizedFileURL)
        case "s3":
            guard let bucket = url.host, S3Location.isValidBucket(bucket) else {
                throw Problem.target(
                    "\(quoted(target)) does not name a valid bucket (3 to 63 lower-case letters, digits, dots "
                        + "and hyphens, as in \"s3://my-photos/site\")")
            }
            let region = region ?? S3Location.defaultRegion
            guard !region.isEmpty, region.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "-") })
            else {
                throw Problem.region("\(quoted(region)) is not a region name such as \"us-east-1\" or \"eu-central-1\"")
            }
            var base = URL(string: "https://s3.\(region).amazonaws.com")!
            if let endpoint {
                guard let parsed = URL(string: endpoint), let scheme = parsed.scheme?.lowercased(),
                    ["http", "https"].contains(scheme),
                    parsed.host != nil, parsed.query == nil, parsed.path.isEmpty || parsed.path == "/"
                else {
                    throw Problem.endpoint(
                        "\(quoted(endpoint)) is not an endpoint such as \"https://s3.example.com\" "
                            + "(http or https, a host and optionally a port, no path)")
                }
                base = parsed
            }
            let prefix = url.path.split(separator: "/").joined(separator: "/")
            return .s3(
                S3Location(
                    bucket: bucket, prefix: prefix.isEmpty ? "" : prefix + "/", endpoint: base, region: region,
                    pathStyle: pathStyle))
        default:
            throw Problem.target(
                "\(quoted(target)) has an unknown scheme \(quoted(scheme)) (expected s3:// or file://)")
        }
    }

    /// Which value `parse` refused, and why.
    public enum Problem: Error, Sendable, Equatable {
        case target(String), endpoint(String), region(String)

        public var message: String {
            switch self {
            case .target(let text), .endpoint(let text), .region(let text): return text
            }
        }
    }

    private static func quoted(_ text: String) -> String { JSONValue.string(text).quoted }
}

/// A bucket, the prefix the site lives under, and how to reach and sign for it.
public struct S3Location: Sendable, Equatable {
    static let defaultRegion = "us-east-1"

    package var bucket: String
    /// Empty, or a key prefix ending in `/` (`site/`).
    package var prefix: String
    package var endpoint: URL
    package var region: String
    package var pathStyle: Bool

    package var description: String { "s3://\(bucket)/\(prefix)" }

    /// S3's bucket naming rules, loosely: 3–63 of `a-z 0-9 . -`, starting and ending with a letter or digit.
    static func isValidBucket(_ name: String) -> Bool {
        let allowed = name.allSatisfy { ($0.isASCII && ($0.isLowercase || $0.isNumber)) || $0 == "." || $0 == "-" }
        return (3...63).contains(name.count) && allowed && name.first!.isLetterOrDigit && name.last!.isLetterOrDigit
    }

    package init(bucket: String, prefix: String, endpoint: URL, region: String, pathStyle: Bool) {
        self.bucket = bucket
        self.prefix = prefix
        self.endpoint = endpoint
        self.region = region
        self.pathStyle = pathStyle
    }
}

private extension Character {
    var isLetterOrDigit: Bool { isASCII && (isLetter || isNumber) }
}
