import Foundation

/// Tells open browsers, over Server-Sent Events, that the site was rebuilt or that a build failed.
///
/// Each browser holds one `EventSource` connection. The script that opens it is added to HTML
/// responses by the server only in watch mode, never to the built files.
package actor LiveReload {
    /// The path the script connects to; outside any path a site can use.
    static let eventsPath = "/_galleryssg/events"

    private var subscribers: [Int: AsyncStream<String>.Continuation] = [:]
    private var nextID = 0
    /// The last build's failure, replayed to browsers that connect while it stands.
    private var failure: String?

    package init() {}

    /// A stream of SSE messages for one browser; it starts with the current build failure, if any.
    package func subscribe() -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream<String>.makeStream(bufferingPolicy: .bufferingNewest(8))
        let id = nextID
        nextID += 1
        subscribers[id] = continuation
        continuation.yield("retry: 1000\n\n")
        if let failure { continuation.yield(Self.message(event: "build-error", data: failure)) }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.remove(id) }
        }
        return stream
    }

    /// A build succeeded: every browser reloads.
    package func reload() {
        failure = nil
        broadcast(Self.message(event: "reload", data: "built"))
    }

    /// A build failed: every browser shows the message over the last good page.
    func buildFailed(_ message: String) {
        failure = message
        broadcast(Self.message(event: "build-error", data: message))
    }

    /// Ends every stream, so connections close when the server stops.
    package func finish() {
        subscribers.values.forEach { $0.finish() }
        subscribers = [:]
    }

    private func remove(_ id: Int) {
        subscribers[id] = nil
    }

    private func broadcast(_ message: String) {
        for continuation in subscribers.values { continuation.yield(message) }
    }

    /// One SSE message; every line of `data` gets its own `data:` field (WHATWG HTML §9.2.6).
    package static func message(event: String, data: String) -> String {
        let lines = data.split(separator: "\n", omittingEmptySubsequences: false).map { "data: \($0)" }
        return "event: \(event)\n" + lines.joined(separator: "\n") + "\n\n"
    }

    /// The script added before `</body>` of served HTML in watch mode.
    package static let script = """
        <script>(function(){var s=new EventSource("\(eventsPath)");\
        s.addEventListener("reload",function(){location.reload()});\
        s.addEventListener("build-error",function(e){var d=document.getElementById("galleryssg-error");\
        if(!d){d=document.createElement("pre");d.id="galleryssg-error";d.setAttribute("role","alert");\
        d.style.cssText="position:fixed;left:0;right:0;bottom:0;max-height:60vh;overflow:auto;margin:0;padding:1rem;\
        background:#3b0a0a;color:#ffe4e4;font:14px/1.45 ui-monospace,monospace;white-space:pre-wrap;z-index:2147483647";\
        document.body.appendChild(d)}d.textContent="galleryssg: the build failed; showing the last good site.\\n\\n"+e.data})})();</script>
        """

    /// `html` with the script inserted before its last `</body>` (or appended when there is none).
    static func inject(into html: Data) -> Data {
        let marker = Data("</body>".utf8)
        let script = Data(script.utf8)
        guard let range = html.range(of: marker, options: .backwards) else { return html + script }
        var result = html
        result.replaceSubrange(range.lowerBound..<range.lowerBound, with: script)
        return result
    }
}
