import Foundation
import GalleryFetch
import GalleryModel
import GalleryOutput
import GalleryServe
import GalleryStore
import Hummingbird
import Testing

/// Rules that several stages apply, written once: a write's failure in words, a transient HTTP
/// status, a file's media type.
@Suite("Rules written once") struct SharedRulesTests {
    /// The ways a full disk or a read-only folder reach Swift: Foundation's errors, with or without
    /// the POSIX cause underneath, and a `POSIXError` thrown from a system call.
    static let failures: [(any Error, WriteFailure?)] = [
        (POSIXError(.ENOSPC), .diskFull),
        (CocoaError(.fileWriteOutOfSpace), .diskFull),
        (
            NSError(
                domain: NSCocoaErrorDomain, code: CocoaError.fileWriteUnknown.rawValue,
                userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(ENOSPC))]), .diskFull
        ),
        (POSIXError(.EACCES), .notWritable),
        (POSIXError(.EROFS), .notWritable),
        (CocoaError(.fileWriteNoPermission), .notWritable),
        (POSIXError(.EIO), nil),
        (CocoaError(.fileNoSuchFile), nil)
    ]

    /// The output and the state folder say the same of the same failure.
    @Test func theOutputAndTheStateNameAWriteFailureAlike() {
        for (error, expected) in Self.failures {
            #expect(WriteFailure(error) == expected, "\(error)")
            let output = #expect(throws: OutputError.self) { try StagedWriter.attempt("/site/a.jpg") { throw error } }
            let state = StoreError.writing("/state/b", error)
            switch expected {
            // Both say it in the same words, and tell the fix, as a person reads it.
            case .diskFull?:
                #expect(output?.kind == .diskFull && output?.reason.hasPrefix("the disk is full") == true, "\(error)")
                #expect(
                    state.kind == .diskFull && state.description.hasPrefix("/state/b: the disk is full"), "\(error)")
            case .notWritable?:
                #expect(output?.kind == .notWritable && output?.reason.hasPrefix("not writable") == true, "\(error)")
                #expect(state.kind == .notWritable && state.description.hasPrefix("/state/b: not writable"), "\(error)")
            case nil:
                #expect(output?.kind == .writeFailed && output?.reason == error.localizedDescription, "\(error)")
                #expect(state.kind == .writeFailed, "\(error)")
            }
        }
    }

    @Test func tooManyRequestsAndServerErrorsAreTransient() {
        #expect([429, 500, 503, 599].allSatisfy(FetchError.isTransient(status:)))
        #expect(![200, 304, 400, 403, 404, 428, 430, 499, 600].contains(where: FetchError.isTransient(status:)))
    }

    /// The preview server and the deploy give the site's files the same type (the server adds a
    /// charset to JSON and XML, which the build writes in UTF-8), and an original's format its own.
    @Test func thePreviewServerAndTheDeployTypeFilesAlike() {
        for (ext, type) in MediaTypes.byExtension {
            let served = SiteMiddleware<BasicRequestContext>.mediaType(URL(fileURLWithPath: "/site/a.\(ext)"))
            #expect(served.split(separator: ";").first.map(String.init) == type, "\(ext)")
            #expect(
                LocalSite.contentType("a/b.\(ext.uppercased())").split(separator: ";").first.map(String.init) == type)
        }
        #expect(LocalSite.contentType("index.html") == "text/html; charset=utf-8")
        #expect(LocalSite.contentType("feed.xml") == "application/xml")
        #expect(LocalSite.contentType("a.unknown") == "application/octet-stream")
        #expect(ImageFormat.heif.mimeType == "image/heic" && ImageFormat.tiff.mimeType == "image/tiff")
        #expect(ImageFormat.raw.mimeType == "application/octet-stream")
    }

    /// A site-relative path the output refuses: the one-pass check says what splitting the path
    /// into parts says (no empty part, no `.` or `..`, no NUL, not absolute), on hostile paths.
    @Test func anOutputPathStaysInsideTheSite() {
        func byParts(_ path: String) -> Bool {
            let parts = path.split(separator: "/", omittingEmptySubsequences: false)
            return !path.hasPrefix("/")
                && parts.allSatisfy { !$0.isEmpty && $0 != "." && $0 != ".." && !$0.utf8.contains(0) }
        }
        let paths = [
            "", "/", "a", "a/b.html", "/a", "a/", "a//b", ".", "..", "...", "./a", "a/.", "../a", "a/../b",
            "a/..", "a/.../b", ".hidden/x", "a/.b", "a\u{0}b", "a/\u{0}", "photos/p1/index.html", "..a/b", "a../b",
            "é/ü.jpg", "a/b/c/d/e", "//", "a/./b"
        ]
        for path in paths {
            #expect(StagedWriter.staysInside(path) == byParts(path), "\(path.debugDescription)")
        }
        #expect(StagedWriter.staysInside("photos/p1/index.html"))
        #expect(!StagedWriter.staysInside("a/../../etc/passwd"))
    }
}
