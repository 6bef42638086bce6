import Foundation
import GalleryModel
import GalleryOutput
import GalleryStore

extension PhotoPublisher {
    /// Whether a photo's failure stops the whole build instead of skipping that one photo: a full
    /// disk, where every later write fails too, so the build ends at once with one message rather
    /// than one warning per photo; or a damaged state database, which `Build` sets aside before it
    /// builds again (`Build.stopping`).
    static func stopsBuild(_ error: any Error) -> Bool {
        let cause = Build.cause(of: error)
        return (cause as? StoreError)?.kind == .diskFull || (cause as? OutputError)?.kind == .diskFull
            || WriteFailure(cause) == .diskFull || StateDatabase.isFull(cause) || StateDatabase.isDamage(cause)
    }
}
