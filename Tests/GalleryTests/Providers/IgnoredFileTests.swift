import Foundation
import GalleryPipeline
import GalleryProviders
import Testing

/// An ignored file's reason is a value; the report's JSON keeps its words, and a report read back
/// (as `build --shard` reads its slices' reports) gets the same reason again from them.
@Suite struct IgnoredFileTests {
    static let reasons: [IgnoredFile.Reason] = [
        .hiddenBy("index.md"), .hiddenBy("IMG_1.jpg.md"), .sidecarRead, .albumIndexRead, .sourceIndexIsNoAlbum,
        .sidecarWithoutPhoto, .systemFile, .hiddenFile, .hiddenFolder, .notesFile, .otherToolsFolder,
        .alreadyListed(as: "/photos/2024 (old)"), .rawBesideItsPhoto("IMG_0042.jpg"), .rawSkipped,
        .livePhotoClipPaired(with: "Lisbon tram.jpg", byIdentifier: false),
        .livePhotoClipPaired(with: "Lisbon tram (paired by its content identifier).jpg", byIdentifier: true),
        .livePhotoClipPaired(with: "IMG_0001.HEIC", byIdentifier: true), .livePhotoClipLeftOut(of: "IMG_0001.HEIC"),
        .audioFile
    ]

    @Test(arguments: reasons) func aReasonIsWrittenAsItsWordsAndReadBack(reason: IgnoredFile.Reason) throws {
        let file = IgnoredFile(path: "a/b.jpg", reason: reason)
        let json = try JSONEncoder().encode(file)
        let object = try #require(try JSONSerialization.jsonObject(with: json) as? [String: String])
        #expect(object == ["path": "a/b.jpg", "reason": reason.description])
        #expect(try JSONDecoder().decode(IgnoredFile.self, from: json) == file)
    }

    @Test func wordsNoReasonMakesAreRefused() {
        #expect(IgnoredFile.Reason("hidden by") == nil)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(IgnoredFile.self, from: Data(#"{"path": "a", "reason": "lost"}"#.utf8))
        }
    }

    /// The summary counts by kind, most files first, ties in the kinds' order.
    @Test func theSummaryCountsEachKind() {
        var report = BuildReport()
        report.ignored = [
            .sidecarRead, .systemFile, .sidecarRead, .hiddenBy("x.md"), .alreadyListed(as: "/p"),
            .sourceIndexIsNoAlbum, .livePhotoClipPaired(with: "a.jpg", byIdentifier: true),
            .livePhotoClipPaired(with: "b.jpg", byIdentifier: false)
        ]
        .map { IgnoredFile(path: "f", reason: $0) }
        #expect(
            report.ignoredSummary == "2 sidecars read, 2 Live Photo clips paired, 1 hidden photo, 1 system file, "
                + "1 folder linked twice, 1 other")
    }
}
