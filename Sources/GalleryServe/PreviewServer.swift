import Foundation
import GalleryPipeline
import Hummingbird
import Logging
import ServiceLifecycle

/// The HTTP side of `galleryssg serve`: the site folder, the live-reload events and a request log.
package struct PreviewServer: Sendable {
    package let folder: URL
    /// Present in watch mode: HTML gets the reload script and `/_galleryssg/events` streams events.
    package let liveReload: LiveReload?
    package let log: @Sendable (String) -> Void

    package init(folder: URL, liveReload: LiveReload?, log: @escaping @Sendable (String) -> Void) {
        self.folder = folder
        self.liveReload = liveReload
        self.log = log
    }

    /// A logger that keeps Hummingbird's own lines out of the way; the request log says enough.
    static var quietLogger: Logger {
        var logger = Logger(label: "galleryssg.serve")
        logger.logLevel = .warning
        return logger
    }

    /// The router: request log, then `SiteMiddleware`, then `FileMiddleware` for everything else.
    package func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: RequestLog(log: log))
        router.add(middleware: SiteMiddleware(files: SiteFiles(root: folder), injectLiveReload: liveReload != nil))
        router.add(middleware: FileMiddleware(folder.path, searchForIndexHtml: true, logger: Self.quietLogger))
        if let liveReload {
            router.get("/_galleryssg/events") { _, _ -> Response in
                let events = await liveReload.subscribe()
                return Response(
                    status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
                    body: ResponseBody { writer in
                        // Ends on Ctrl-C too, so an open browser never holds the shutdown.
                        for await message in events.cancelOnGracefulShutdown() {
                            try await writer.write(ByteBuffer(string: message))
                        }
                        try await writer.finish(nil)
                    })
            }
        }
        return router
    }
}

/// One concise line per request: method, path, status and time.
struct RequestLog<Context: RequestContext>: RouterMiddleware {
    let log: @Sendable (String) -> Void

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        let started = ContinuousClock.now
        do {
            let response = try await next(request, context)
            log(line(request, response.status.code, started))
            return response
        } catch let error as any HTTPResponseError {
            log(line(request, error.status.code, started))
            throw error
        }
    }

    private func line(_ request: Request, _ status: Int, _ started: ContinuousClock.Instant) -> String {
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000
        return "\(request.method) \(request.uri.path) \(status) \(String(format: "%.1f", milliseconds)) ms"
    }
}
