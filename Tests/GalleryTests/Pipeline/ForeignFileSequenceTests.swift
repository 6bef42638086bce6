import Foundation
import Testing

/// Issue 27's sequence as a user met it, with nothing but `build`: an `output` naming a folder of
/// the user's own, a build, a changed photo, a build. Before the fix the first build swapped the
/// folder into `.public.spare` and the second pruned `thesis.txt` from it without a word.
extension LoadSensitive {
    @Suite("Issue 27: the thesis sequence", .serialized)
    struct ForeignFileSequenceTests {
        /// Every copy of a file named `name` anywhere below `folder`.
        private func copies(of name: String, below folder: URL) -> [URL] {
            let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
            var found: [URL] = []
            while let url = walker?.nextObject() as? URL {
                if url.lastPathComponent == name { found.append(url) }
            }
            return found
        }

        @Test func buildChangeAPhotoBuildAgainKeepsTheThesisWhereItWas() async throws {
            let site = try FixtureSite.make(entries: IncrementalFixtures.five)
            let thesis = Data("Chapter 1. Only copy of my thesis.\n".utf8)
            try FileManager.default.createDirectory(at: site.output, withIntermediateDirectories: true)
            try thesis.write(to: site.output.appendingPathComponent("thesis.txt"))

            var refusals: [String] = []
            for round in 0..<2 {
                do {
                    _ = try await site.build()
                } catch {
                    refusals.append("\(error)")
                }
                let photo = site.folder.appendingPathComponent("photos/photo-2.jpg")
                try Fixtures.unique(try Data(contentsOf: photo), "round \(round)").write(to: photo)
            }
            #expect(try Data(contentsOf: site.output.appendingPathComponent("thesis.txt")) == thesis)
            #expect(copies(of: "thesis.txt", below: site.folder).count == 1)
            #expect(refusals.count == 2)
            #expect(
                refusals.allSatisfy {
                    $0.contains(site.output.path) && $0.contains("thesis.txt") && $0.contains("--force")
                })
        }
    }
}
