import Foundation
import GalleryFuzzing
import GalleryImaging
import GalleryModel
import Testing

/// The libFuzzer harnesses (Fuzz/, Scripts/fuzz.sh), replayed in the ordinary suite: every seed,
/// and every input a campaign found (kept in Tests/Fixtures/fuzz-regressions/HARNESS/ once its bug
/// was fixed), must pass through its harness without a crash or a broken property.
@Suite("Fuzz harnesses")
struct FuzzHarnessTests {
    static let corpus = Fixtures.repository.appendingPathComponent("Fuzz/Corpus")
    static let regressions = Fixtures.url("fuzz-regressions")

    /// The files in `folder/harness`, sorted; none when the folder is absent.
    static func inputs(_ folder: URL, _ harness: String) throws -> [URL] {
        let directory = folder.appendingPathComponent(harness)
        guard FileManager.default.fileExists(atPath: directory.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    @Test func everyHarnessHasSeedsAndADictionary() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path)
        #expect(Set(folders) == Set(FuzzHarness.all.map(\.name)))
        let script = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("Scripts/fuzz.sh"), encoding: .utf8)
        for harness in FuzzHarness.all {
            #expect(try !Self.inputs(Self.corpus, harness.name).isEmpty, "\(harness.name) has no seeds")
            #expect(script.contains(harness.name), "Scripts/fuzz.sh does not run \(harness.name)")
        }
        let regressionFolders = (try? FileManager.default.contentsOfDirectory(atPath: Self.regressions.path)) ?? []
        #expect(Set(regressionFolders).isSubset(of: Set(FuzzHarness.all.map(\.name))), "\(regressionFolders)")
    }

    /// The `image-headers` hang: a 307-byte PNG whose `iTXt` claims 1 GB, which libpng allocated and
    /// zeroed before finding the file short (16 s under load). It is refused before libpng sees it.
    @Test func aPNGChunkLongerThanTheFileIsRefusedBeforeLibpngReadsIt() throws {
        let data = try Fixtures.data("fuzz-regressions/image-headers/png-itxt-claims-1gb.png")
        let reads: [() throws -> Void] = [
            { _ = try PNGCodec.size(data) },
            { _ = try PNGCodec.decode(data, background: RGB(red: 0, green: 0, blue: 0)) }
        ]
        for read in reads {
            let error = #expect(throws: ImagingError.self) { try read() }
            #expect(error?.kind == .damaged)
            // libpng's failures are `.damaged` too: only the words show that galleryssg's check refused it.
            #expect(
                error?.description.contains("its iTXt chunk at byte 33 claims 1073741960 bytes, but only 266 follow")
                    == true,
                "\(String(describing: error))")
        }
    }

    @Test(arguments: FuzzHarness.all.map(\.name))
    func seedsAndFoundInputsPass(_ name: String) throws {
        let harness = try #require(FuzzHarness.named(name))
        for input in try Self.inputs(Self.corpus, name) + Self.inputs(Self.regressions, name) {
            let broken = harness.run(try Data(contentsOf: input))
            #expect(broken == nil, "\(name) \(input.lastPathComponent): \(broken ?? "")")
        }
    }
}
