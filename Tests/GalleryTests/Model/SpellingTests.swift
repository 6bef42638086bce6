import GalleryModel
import Testing

/// The one edit distance behind every "did you mean …?" hint.
@Suite("Spelling suggestions")
struct SpellingTests {
    @Test func suggestsTheClosestKnownWord() {
        let keys = ["title", "description", "pageSize", "images", "source"]
        #expect(Spelling.closest(to: "titel", among: keys) == "title")
        #expect(Spelling.closest(to: "pagesize", among: keys) == "pageSize")
        #expect(Spelling.closest(to: "imgaes", among: keys) == "images")
        #expect(Spelling.closest(to: "descripton", among: keys) == "description")
        #expect(Spelling.closest(to: "bulid", among: ["build", "serve", "deploy", "clean"]) == "build")
        #expect(Spelling.closest(to: "colophon", among: keys) == nil)
        #expect(Spelling.closest(to: "x", among: keys) == nil)
    }

    @Test func countsEditsAndSwaps() {
        func distance(_ a: String, _ b: String) -> Int { Spelling.editDistance(Array(a), Array(b)) }
        #expect(distance("", "abc") == 3)
        #expect(distance("kitten", "sitting") == 3)
        #expect(distance("titel", "title") == 1)
        #expect(distance("same", "same") == 0)
    }
}
