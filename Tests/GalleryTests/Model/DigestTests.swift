import Foundation
import GalleryKeys
import GalleryModel
import GalleryStore
import Testing

import struct Crypto.SHA256

/// Keys held as 32 bytes: the same text outside the process as when they were hex strings.
struct DigestTests {
    @Test func sha256IsTheKnownDigestAndRoundTripsThroughHex() throws {
        let digest = CacheKey.sha256(Data("abc".utf8))
        #expect(digest.hex == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(Digest(hex: digest.hex) == digest)
        #expect(Digest(hex: digest.hex.uppercased()) == digest)
        #expect("\(digest)" == digest.hex)
        #expect(digest.prefix(2) == "ba")
    }

    @Test func onlySixtyFourHexDigitsParse() {
        let hex = CacheKey.sha256(Data("x".utf8)).hex
        #expect(Digest(hex: String(hex.dropLast())) == nil)
        #expect(Digest(hex: hex + "0") == nil)
        #expect(Digest(hex: String(hex.dropLast()) + "g") == nil)
        #expect(Digest(hex: "") == nil)
        #expect(Digest(hex: " " + String(hex.dropLast())) == nil)
    }

    /// Hex is written and read eight digits at a time: every digest's text is what formatting each
    /// byte makes, and every byte but the 22 hex digits is refused, at ten places across the words.
    @Test func hexIsEachByteFormattedAndOnlyHexDigitsParse() throws {
        for index in 0..<300 {
            let data = Data("\(index)".utf8)
            let formatted = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            let digest = CacheKey.sha256(data)
            #expect(digest.hex == formatted)
            #expect(Digest(hex: formatted) == digest && Digest(hex: formatted.uppercased()) == digest)
        }
        let known = CacheKey.sha256(Data("abc".utf8))
        let text = Array(known.hex.utf8)
        let digits = Set("0123456789abcdefABCDEF".utf8)
        for place in [0, 7, 8, 15, 16, 31, 32, 47, 56, 63] {
            for byte in UInt8.min...UInt8.max {
                var changed = text
                changed[place] = byte
                let parsed = Digest(hexBytes: changed)
                if digits.contains(byte) {
                    #expect(parsed != nil, "\(byte) at \(place)")
                    #expect(parsed?.hex == String(decoding: changed, as: UTF8.self).lowercased())
                } else {
                    #expect(parsed == nil, "\(byte) at \(place)")
                }
            }
        }
    }

    /// A key gathers small inputs before hashing them: it is still the SHA-256 of every input
    /// after its length, whatever their sizes (empty, small, about the gathering's size, larger).
    @Test func aKeyIsTheHashOfItsLengthPrefixedInputs() {
        var random = SeededRandom(seed: 256)
        for round in 0..<40 {
            var key = CacheKey("round \(round)")
            var expected = SHA256()
            func feed(_ bytes: [UInt8]) {
                withUnsafeBytes(of: UInt64(bytes.count).littleEndian) { expected.update(bufferPointer: $0) }
                expected.update(data: bytes)
            }
            feed(Array("round \(round)".utf8))
            for _ in 0..<Int.random(in: 0..<30, using: &random) {
                let size = [0, 1, 7, 8, 64, 247, 248, 255, 256, 257, 600, Int.random(in: 0..<2000, using: &random)]
                    .randomElement(using: &random)!
                let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
                bytes.withUnsafeBytes { key.add(bytes: $0) }
                feed(bytes)
            }
            let digest = CacheKey.sha256(Data())  // a digest's bytes go in as they are
            key.add(bytesOf: digest)
            digest.withBytes { feed(Array($0)) }
            #expect(key.finish() == Digest(expected.finalize()))
            #expect(key.finish() == key.finish())
        }
    }

    /// Sorting digests sorts them as their hex texts, so lists written to the state or the learnt
    /// files keep the order they had.
    @Test func digestsSortAsTheirHexTexts() {
        let digests = (0..<200).map { CacheKey.sha256(Data("\($0)".utf8)) }
        #expect(digests.sorted().map(\.hex) == digests.map(\.hex).sorted())
    }

    /// A key made from a key is the same whether the inner key is added as a digest or as its hex
    /// text, so caches made before keys were digests stay valid.
    @Test func addingADigestAddsItsHexText() {
        let inner = CacheKey.sha256(Data("inner".utf8))
        var asDigest = CacheKey("outer")
        asDigest.add(inner)
        var asText = CacheKey("outer")
        asText.add(inner.hex)
        #expect(asDigest.finish() == asText.finish())
    }

    /// A table finds every key it holds and none it does not, whatever order the keys came in, and
    /// keeps the last value of a key added twice.
    @Test func digestTablesFindTheirKeys() {
        let keys = (0..<500).map { CacheKey.sha256(Data("\($0)".utf8)) }
        var ordered = DigestTable<Int>()
        for (index, key) in keys.enumerated().sorted(by: { $0.element < $1.element }) { ordered.append(key, index) }
        var shuffled = DigestTable<Int>()
        for (index, key) in keys.enumerated().reversed() { shuffled.append(key, index) }
        shuffled.append(keys[7], -7)
        shuffled.sort()
        for table in [ordered, shuffled] {
            #expect(table.count == 500)
            #expect(table.keys == keys.sorted())
            #expect(keys.indices.dropFirst(8).allSatisfy { table[keys[$0]] == $0 })
            #expect(table[CacheKey.sha256(Data("absent".utf8))] == nil)
        }
        #expect(ordered[keys[7]] == 7 && shuffled[keys[7]] == -7)
        #expect(DigestTable<Int>()[keys[0]] == nil)
    }

    /// In JSON a digest is its hex text, and a dictionary keyed by digests is an object.
    @Test func jsonKeepsTheHexForm() throws {
        let key = CacheKey.sha256(Data("k".utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(["table": [key: 1]]), as: UTF8.self)
        #expect(json == "{\"table\":{\"\(key.hex)\":1}}")
        #expect(try JSONDecoder().decode([String: [Digest: Int]].self, from: Data(json.utf8)) == ["table": [key: 1]])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Digest].self, from: Data("[\"abc\"]".utf8)) }
    }
}
