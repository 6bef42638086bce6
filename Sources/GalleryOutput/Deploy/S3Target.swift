import AsyncHTTPClient
import Crypto
import Foundation
import GalleryConfig
import GalleryFetch
import NIOCore
import NIOHTTP1

/// An S3 bucket (AWS or any S3-compatible store), spoken to directly: ListObjectsV2, PutObject,
/// HeadObject and DeleteObjects, each signed with SigV4.
///
/// Every upload carries `Content-MD5` (the store rejects a body that arrived damaged) and the
/// content's SHA-256 in `x-amz-meta-sha256`, so a later deploy can compare contents even where the
/// ETag is not an MD5 (multipart uploads, SSE-KMS). Throttling, server errors, broken connections
/// and timeouts are retried as AWS's SDKs do (`S3RetryPolicy`), each attempt signed anew, with fewer
/// requests at once while the store throttles (`AdaptiveConcurrency`); see S3Target+Send.swift.
package final class S3Target: DeployTarget {
    package let location: S3Location
    package let signer: SigV4
    let client: HTTPClient
    let retry: S3RetryPolicy
    let budget: RetryBudget
    let slots: AdaptiveConcurrency
    let timeout: TimeAmount
    /// Keys asked for per ListObjectsV2 page (S3's maximum is 1000); smaller in tests, to page.
    package let listPageSize: Int
    /// Keys per DeleteObjects request; S3 allows 1000 at most.
    package let deleteBatchSize: Int

    /// - Parameters:
    ///   - keys: The access key pair (and session token) from the environment (`S3Target.keys(from:)`).
    ///   - network: The timeout and the requests at once (`connectionsPerHost`), as for downloads.
    ///   - retry: How failed requests are retried; quicker in tests.
    package init(
        location: S3Location, keys: SigV4.Keys, network: NetworkSettings, retry: S3RetryPolicy = .standard,
        listPageSize: Int = 1000, deleteBatchSize: Int = 1000
    ) {
        self.location = location
        signer = SigV4(keys: keys, region: location.region, service: "s3")
        self.retry = retry
        budget = RetryBudget(retry)
        slots = AdaptiveConcurrency(maximum: network.connectionsPerHost)
        timeout = .seconds(Int64(network.timeoutSeconds))
        var configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .seconds(Int64(min(network.timeoutSeconds, 15))), read: .seconds(Int64(network.timeoutSeconds))
            ))
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = network.connectionsPerHost
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        self.listPageSize = min(max(listPageSize, 1), 1000)
        self.deleteBatchSize = min(max(deleteBatchSize, 1), 1000)
    }

    package var description: String { location.description }

    /// The variables the keys come from, for messages.
    package static let keyVariables =
        "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary keys)"

    /// The access key pair and optional session token from `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY`
    /// and `AWS_SESSION_TOKEN`.
    /// - Throws: `DeployError` when either key is missing.
    package static func keys(from environment: [String: String]) throws -> SigV4.Keys {
        guard let id = environment["AWS_ACCESS_KEY_ID"], !id.isEmpty,
            let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty
        else {
            throw DeployError.credentials("", "no S3 credentials: set \(keyVariables) in the environment")
        }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return SigV4.Keys(accessKeyID: id, secretAccessKey: secret, sessionToken: token)
    }

    package func list() async throws -> [RemoteObject] {
        var objects: [RemoteObject] = []
        var token: String?
        repeat {
            var query = [("list-type", "2"), ("prefix", location.prefix), ("max-keys", String(listPageSize))]
            if let token { query.append(("continuation-token", token)) }
            let response = try await send("GET", key: nil, query: query)
            guard let page = S3XML.listPage(response.body) else {
                throw DeployError.request(description, "the ListObjectsV2 answer is not a ListBucketResult document")
            }
            for object in page.objects where object.key.hasPrefix(location.prefix) {
                let key = String(object.key.dropFirst(location.prefix.count))
                let etag = object.etag.trimmingCharacters(in: CharacterSet(charactersIn: "\""))
                let isMD5 = etag.count == 32 && etag.allSatisfy(\.isHexDigit)
                let sha = isMD5 ? nil : try await storedSHA256(key)
                objects.append(
                    RemoteObject(key: key, size: object.size, md5: isMD5 ? etag.lowercased() : nil, sha256: sha))
            }
            token = page.continuationToken
        } while token != nil
        return objects
    }

    package func put(_ file: LocalFile) async throws {
        let body: Data
        do {
            body = try Data(contentsOf: file.url)
        } catch {
            throw DeployError.local(file.url.path, "cannot be read: \(error.localizedDescription)")
        }
        guard SigV4.hex(SHA256.hash(data: body)) == file.sha256 else {
            throw DeployError.local(file.url.path, "changed since the deploy was planned; is a build running?")
        }
        var headers = [
            ("content-type", file.contentType),
            ("content-md5", Data(Insecure.MD5.hash(data: body)).base64EncodedString()),
            ("x-amz-meta-sha256", file.sha256)
        ]
        if let cacheControl = file.cacheControl { headers.append(("cache-control", cacheControl)) }
        _ = try await send("PUT", key: file.key, headers: headers, body: body, payloadHash: file.sha256)
    }

    package func delete(_ keys: [String]) async throws {
        for start in stride(from: 0, to: keys.count, by: deleteBatchSize) {
            let batch = Array(keys[start..<min(start + deleteBatchSize, keys.count)])
            let body = S3XML.deleteRequest(keys: batch.map { location.prefix + $0 })
            let headers = [
                ("content-type", "application/xml"),
                ("content-md5", Data(Insecure.MD5.hash(data: body)).base64EncodedString())
            ]
            let response = try await send("POST", key: nil, query: [("delete", "")], headers: headers, body: body)
            guard let failures = S3XML.deleteFailures(response.body) else {
                throw DeployError.request(description, "the DeleteObjects answer is not a DeleteResult document")
            }
            if let first = failures.first {
                throw DeployError.request(
                    "\(description)\(first.key.dropFirst(location.prefix.count))",
                    "could not be deleted (\(first.error.code): \(first.error.message))"
                        + (failures.count > 1 ? " and \(failures.count - 1) more" : ""))
            }
        }
    }

    package func close() async {
        try? await client.shutdown()
    }

    package var traffic: DeployTraffic {
        DeployTraffic(retries: budget.retries, throttles: budget.throttles, lowestConcurrency: slots.lowest)
    }

    /// The `x-amz-meta-sha256` an object was uploaded with, from a HEAD request.
    private func storedSHA256(_ key: String) async throws -> String? {
        let response = try await send("HEAD", key: key)
        return response.headers.first { $0.0.lowercased() == "x-amz-meta-sha256" }?.1.lowercased()
    }

    package struct Response {
        package var status: Int
        package var headers: [(String, String)]
        package var body: Data

        package init(status: Int, headers: [(String, String)], body: Data) {
            self.status = status
            self.headers = headers
            self.body = body
        }
    }

    /// The scheme-and-authority to connect to, the `Host` header and the unencoded path for `key`
    /// (the bucket itself when nil), in path or virtual-host style.
    package func address(key: String?) -> (base: String, host: String, path: String) {
        let endpoint = location.endpoint
        let port = endpoint.port.map { ":\($0)" } ?? ""
        let scheme = endpoint.scheme?.lowercased() ?? "https"
        let objectPath = key.map { location.prefix + $0 }
        if location.pathStyle {
            let host = (endpoint.host ?? "") + port
            return ("\(scheme)://\(host)", host, "/\(location.bucket)" + (objectPath.map { "/" + $0 } ?? ""))
        }
        let host = "\(location.bucket).\(endpoint.host ?? "")" + port
        return ("\(scheme)://\(host)", host, "/" + (objectPath ?? ""))
    }
}
