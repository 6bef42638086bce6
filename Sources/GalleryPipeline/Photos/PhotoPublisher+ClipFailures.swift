import Foundation
import GalleryImaging
import GalleryKeys
import GalleryModel
import GalleryStore

/// Clips that failed are not run through ffprobe and ffmpeg again on every build: their failure is
/// remembered in the state by the clip's content hash and the tools' fingerprint
/// (`VideoEncoder.fingerprint`), and reported again in the same words until either changes.
/// Only a fault of the file's is remembered (damaged, truncated, no video, a codec ffmpeg does not
/// know), never a limit of the config's, a missing tool or one stopped at its time limit.
extension PhotoPublisher {
    /// Words added to a remembered failure's reason, so a reader knows why nothing ran.
    static let rememberedNote =
        " (remembered from an earlier build: it is tried again when the file or ffmpeg changes, or with --rebuild)"

    /// Runs `body`, the clip's ffprobe or ffmpeg work, unless the clip's failure is remembered
    /// (which is thrown again instead); a failure of the file's is remembered.
    func rememberingFailure<T>(ofClip hash: Digest, _ body: () async throws -> T) async throws -> T {
        guard let database = state.database, let tools = videos.encoder.fingerprint else { return try await body() }
        if state.reuse, let known = try database.clipFailure(hash, tools: tools) {
            throw ImagingError(
                known.kind == "unsupported" ? .unsupported : .damaged, description: known.reason + Self.rememberedNote,
                toolOutput: known.toolOutput)
        }
        do {
            return try await body()
        } catch let error as ImagingError where error.kind == .damaged || error.kind == .unsupported {
            let failure = ClipFailure(
                kind: error.kind == .unsupported ? "unsupported" : "damaged", reason: error.description,
                toolOutput: error.toolOutput)
            try database.remember(failure, hash: hash, tools: tools)
            throw error
        }
    }
}
