import Foundation
// TEMPORARY until the metadata branch lands: the interfaces FolderProvider calls.
struct PhotoSidecar {
    var hidden = false
    static func read(markdown: URL?, xmp: URL?) throws -> PhotoSidecar { PhotoSidecar() }
    func apply(to photo: inout Photo) {}
}
enum AlbumIndex {
    static func read(_ url: URL, photoIDsByFileName: [String: String]) throws -> (info: AlbumInfo, hiddenFiles: [String]) {
        (AlbumInfo(), [])
    }
}
