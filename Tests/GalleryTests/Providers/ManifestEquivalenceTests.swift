import Foundation
import GalleryProviders
import Testing

/// The entry-by-entry read against the whole-document decode it replaced, on generated manifests:
/// every document, valid or damaged, must give the same photos, issues and albums, or be refused
/// for the same reason.
@Suite("Manifest read entry by entry matches a whole decode")
struct ManifestEquivalenceTests {
    static let mapper = ManifestEntryMapper(resolver: .folder(URL(fileURLWithPath: "/site/manifests")))

    static func expectSame(
        _ data: Data, chunkSize: Int, _ note: @autoclosure () -> String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> ManifestOutcome {
        let whole = WholeManifestDecode.outcome(data, mapper: mapper)
        let entryByEntry = ManifestOutcome.entryByEntry(data, mapper: mapper, chunkSize: chunkSize)
        #expect(
            entryByEntry == whole,
            """
            \(note()), chunks of \(chunkSize): \(entryByEntry) but a whole decode: \(whole)
            \(String(decoding: data, as: UTF8.self))
            """, sourceLocation: sourceLocation)
        return whole
    }

    @Test func generatedDocumentsReadAsAWholeDecodeReadsThem() {
        var random = SeededRandom(seed: 13)
        var refused = 0
        var photos = 0
        var issues = 0
        for index in 0..<400 {
            var generator = ManifestGenerator(random: random)
            let data = generator.document()
            random = generator.random
            let outcome = Self.expectSame(
                data, chunkSize: [1, 3, 7, 100, ManifestBytes.chunkSize][index % 5], "document \(index)")
            if outcome.failure != nil { refused += 1 }
            photos += outcome.photos.count
            issues += outcome.issues.count
        }
        // The generator makes mostly valid manifests, with photos and with issues.
        #expect(
            refused < 120 && photos > 1_000 && issues > 1_000, "\(refused) refused, \(photos) photos, \(issues) issues")
    }

    /// Every truncation of small documents, and bytes changed, dropped or added where they do most harm.
    @Test func damagedDocumentsFailAsAWholeDecodeFails() {
        var random = SeededRandom(seed: 2026)
        let harmful = Array(#""\[]{},: 0eu-/"#.utf8) + [0, 0x0c, 0xff, 0xc3]
        var refused = 0
        var total = 0
        for index in 0..<40 {
            var generator = ManifestGenerator(random: random, maxEntries: 3)
            let document = [UInt8](generator.document())
            random = generator.random
            var damaged = (0..<document.count).map { Array(document.prefix($0)) }
            for _ in 0..<60 where !document.isEmpty {
                var bytes = document
                let at = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[at] = harmful.randomElement(using: &random) ?? 0
                case 1: bytes.remove(at: at)
                default: bytes.insert(harmful.randomElement(using: &random) ?? 0, at: at)
                }
                damaged.append(bytes)
            }
            for (number, bytes) in damaged.enumerated() {
                let chunkSize = [1, 2, 5, ManifestBytes.chunkSize][number % 4]
                if Self.expectSame(Data(bytes), chunkSize: chunkSize, "document \(index), damage \(number)").failure
                    != nil
                {
                    refused += 1
                }
                total += 1
            }
        }
        #expect(refused > total / 2, "\(refused) of \(total) refused")
    }
}

/// A small, seeded random number generator (SplitMix64), so that a failure can be replayed.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var value = state
        value = (value ^ (value >> 30)) &* 0xbf58_476d_1ce4_e5b9
        value = (value ^ (value >> 27)) &* 0x94d0_49bb_1331_11eb
        return value ^ (value >> 31)
    }
}
