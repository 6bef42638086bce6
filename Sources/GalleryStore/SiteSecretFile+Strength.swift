import Foundation

/// How guessable a site secret looks. No test can prove a string random; this one refuses what
/// people type when asked for a secret: short strings, a word or pattern repeated, runs of one
/// character or of neighbours (`aaaa`, `abcd`, `1234`), and strings of few different characters.
extension SiteSecretFile {
    /// Refuses a secret from the environment that is short or looks guessable.
    /// - Throws: `SiteSecretError.tooShort` under `minimumLength` characters, `.weak` under `minimumBits`.
    package static func check(_ text: String) throws {
        let length = text.count
        guard length >= minimumLength else { throw SiteSecretError.tooShort(length: length) }
        let bits = estimatedBits(text)
        guard bits >= Double(minimumBits) else {
            throw SiteSecretError.weak(length: length, bits: Int(bits.rounded(.down)))
        }
    }

    /// An estimate of the bits of entropy of `text`: the Shannon entropy of its own characters'
    /// frequencies, times the characters that carry any. Of a text that repeats a shorter one
    /// (`secretsecret…`) only that one counts, and a character that repeats the one before it or
    /// follows on from it (`b` after `a`, `4` after `3`) counts for nothing.
    ///
    /// The 44 characters of `openssl rand -base64 32` and the 64 of `openssl rand -hex 32` (the state's
    /// own `site-secret`) estimate about 200 bits (175 the least of 200 tries); a repeated word or an
    /// alphabet run of 32 characters far under 128.
    package static func estimatedBits(_ text: String) -> Double {
        let characters = Array(text.unicodeScalars)
        let unit = characters.prefix(repeatingUnitLength(characters))
        var counts: [Unicode.Scalar: Int] = [:]
        for character in unit { counts[character, default: 0] += 1 }
        let total = Double(unit.count)
        let perCharacter = counts.values.reduce(0.0) { sum, count in
            let share = Double(count) / total
            return sum - share * log2(share)
        }
        var carrying = 0
        for index in unit.indices {
            let step = index == unit.startIndex ? Int.max : Int(unit[index].value) - Int(unit[index - 1].value)
            if abs(step) > 1 { carrying += 1 }
        }
        return perCharacter * Double(carrying)
    }

    /// The length of the shortest piece that `characters` repeats, at least twice, the last time
    /// perhaps in part (`abcabcab`: 3); its own length when there is none.
    static func repeatingUnitLength(_ characters: [Unicode.Scalar]) -> Int {
        let count = characters.count
        for length in 1...max(1, count / 2) where length < count {
            if (length..<count).allSatisfy({ characters[$0] == characters[$0 - length] }) { return length }
        }
        return count
    }
}
