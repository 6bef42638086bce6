import AsyncHTTPClient
import Crypto
import Foundation
import GalleryFetch
import NIOCore
import NIOHTTP1

extension S3Target {
    /// Signs and sends one request, retrying what `S3RetryPolicy.classify` calls retryable: after a
    /// full-jitter backoff, at most `retry.maxAttempts` times, while the deploy's `RetryBudget` pays.
    /// Every attempt holds one of the `AdaptiveConcurrency` slots while it is on the wire.
    /// - Throws: `DeployError`: `.credentials` for a refused key or signature, `.request` otherwise
    ///   (saying how many attempts were made when they ran out), or `CancellationError`.
    package func send(
        _ method: String, key: String?, query: [(String, String)] = [], headers: [(String, String)] = [],
        body: Data = Data(), payloadHash: String? = nil
    ) async throws -> Response {
        let address = self.address(key: key)
        let where_ = key.map { description + $0 } ?? description
        let hash = payloadHash ?? SigV4.hex(SHA256.hash(data: body))
        var attempt = 1
        var lastCost: Int?
        while true {
            try Task.checkCancellation()
            var request = SigV4.Request(
                method: method, path: address.path, query: query,
                headers: [("host", address.host), ("x-amz-content-sha256", hash)] + headers, payloadHash: hash)
            let ticket = try await slots.acquire()
            let failed: Attempt
            do {
                request.headers = signer.sign(request, at: Date())
                let response = try await exchange(request, base: address.base, body: body, location: where_)
                slots.release(ticket, .succeeded)
                budget.succeeded(lastCost: lastCost)
                return response
            } catch let attemptFailed as Attempt {
                slots.release(ticket, attemptFailed.failure == .throttle ? .throttled : .failed)
                failed = attemptFailed
            } catch {
                slots.release(ticket, .failed)
                throw error
            }
            guard attempt < retry.maxAttempts else {
                throw DeployError.attemptsSpent(failed.error, attempts: attempt)
            }
            guard let cost = budget.withdraw(after: failed.failure) else {
                throw DeployError.retryBudgetSpent(failed.error, retries: budget.retries)
            }
            lastCost = cost
            let wait = retry.delay(beforeRetry: attempt, unit: Double.random(in: 0..<1), retryAfter: failed.retryAfter)
            try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000))
            attempt += 1
        }
    }

    /// An attempt that failed in a way worth retrying.
    struct Attempt: Error {
        var failure: S3RetryPolicy.Failure
        /// What to report if it is not retried.
        var error: DeployError
        /// Seconds the store asked us to wait (`Retry-After`).
        var retryAfter: Double? = nil
    }

    /// Sends one signed request and reads the whole answer.
    /// - Throws: `Attempt` for a retryable failure, `DeployError` for any other.
    private func exchange(_ signed: SigV4.Request, base: String, body: Data, location where_: String) async throws
        -> Response
    {
        let query = signed.query.map {
            $0.value.isEmpty
                ? SigV4.encode($0.name, keepSlash: false)
                : "\(SigV4.encode($0.name, keepSlash: false))=\(SigV4.encode($0.value, keepSlash: false))"
        }
        let url =
            base + SigV4.encode(signed.path, keepSlash: true)
            + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: signed.method)
        for (name, value) in signed.headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "User-Agent", value: HTTPTransport.userAgent)
        if !body.isEmpty || signed.method == "PUT" {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let answer: Response
        do {
            let response = try await client.execute(request, timeout: timeout)
            let buffer = try await response.body.collect(upTo: 64 * 1024 * 1024)
            answer = Response(
                status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) },
                body: Data(buffer.readableBytesView))
        } catch {
            let failure = S3RetryPolicy.classify(transport: error)
            let problem = DeployError.request(where_, "\(signed.method) failed: \(HTTPTransport.describe(error))")
            guard failure != .permanent else { throw problem }
            throw Attempt(failure: failure, error: problem)
        }
        guard (200..<300).contains(answer.status) else {
            throw failure(answer, method: signed.method, location: where_)
        }
        return answer
    }

    /// The error for a non-2xx answer: `Attempt` when it is worth retrying, a credential problem for
    /// a refused key or signature, a plain request error otherwise.
    private func failure(_ answer: Response, method: String, location where_: String) -> Error {
        let body = S3XML.error(answer.body)
        let detail = body.map { "\($0.code): \($0.message)" } ?? "HTTP \(answer.status)"
        let failure = S3RetryPolicy.classify(status: answer.status, code: body?.code)
        if failure != .permanent {
            let retryAfter = answer.headers.first { $0.0.lowercased() == "retry-after" }.flatMap {
                FetchError.parseRetryAfter($0.1)
            }
            return Attempt(
                failure: failure, error: DeployError.request(where_, "\(method) failed: \(detail)"),
                retryAfter: retryAfter)
        }
        let refused = [
            "InvalidAccessKeyId", "SignatureDoesNotMatch", "ExpiredToken", "InvalidToken", "TokenRefreshRequired"
        ]
        if let code = body?.code, refused.contains(code) {
            return DeployError.credentials(
                where_, "the store refused the credentials (\(detail)); check \(Self.keyVariables)")
        }
        if answer.status == 403 && body == nil {
            return DeployError.credentials(
                where_, "HTTP 403 to \(method); check \(Self.keyVariables) and the key's permissions")
        }
        return DeployError.request(where_, "\(method) failed: \(detail)")
    }
}
