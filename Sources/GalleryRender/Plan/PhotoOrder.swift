import Foundation
import GalleryModel

/// Puts photos in a `PhotoSort` order: the home grid and prev/next by the site's `sort`, an
/// album's own photos by its own.
///
/// Every order is total and deterministic: photos without the sort's value (no date, no rating)
/// come after those with one whichever the direction, and ties keep source order, so two builds of
/// the same manifest never shuffle pages.
package enum PhotoOrder {
    /// `positions` (source positions of photos, as given by `photo`) in `sort`'s order.
    package static func sorted(_ positions: [Int], by sort: PhotoSort, photo: (Int) -> Photo) -> [Int] {
        switch sort.key {
        case .source:
            let ascending = positions.sorted()
            return sort.descending ? ascending.reversed() : ascending
        case .taken:
            return ordered(positions, descending: sort.descending) { [SortKey(Self.instant(photo($0).takenAt))] }
        case .rating:
            return ordered(positions, descending: sort.descending) { position in
                let value = photo(position)
                return [SortKey(value.rating.map(Double.init)), SortKey(Self.instant(value.takenAt))]
            }
        case .name:
            return ordered(positions, descending: sort.descending) { position in
                let value = photo(position)
                return [SortKey(name: value.title ?? value.fallbackTitle ?? value.id)]
            }
        }
    }

    /// `positions`, already in an order, with those that have a place by hand (`order`) moved first,
    /// lower places first; equal places and the rest keep the order they had. An album's `order` list
    /// and its photos' `order` or `weight` so come before its `sort`, which orders what they leave out.
    package static func manual(_ positions: [Int], order: (Int) -> Int?) -> [Int] {
        let placed = positions.enumerated().compactMap { entry in order(entry.element).map { (entry, $0) } }
        guard !placed.isEmpty else { return positions }
        let first = placed.sorted { ($0.1, $0.0.offset) < ($1.1, $1.0.offset) }.map(\.0.element)
        return first + positions.filter { order($0) == nil }
    }

    /// One comparable value; `missing` sorts last in both directions.
    struct SortKey {
        var number: Double?
        var name: [NameChunk]?

        init(_ number: Double?) { self.number = number }
        init(name: String) { self.name = NameChunk.split(name) }

        var missing: Bool { number == nil && name == nil }

        /// -1, 0 or 1, ascending.
        func compare(_ other: SortKey) -> Int {
            if let left = number, let right = other.number { return left < right ? -1 : (left > right ? 1 : 0) }
            if let left = name, let right = other.name { return NameChunk.compare(left, right) }
            return 0
        }
    }

    private static func ordered(_ positions: [Int], descending: Bool, keys: (Int) -> [SortKey]) -> [Int] {
        let keyed = positions.map { (position: $0, keys: keys($0)) }
        return keyed.sorted { lhs, rhs in
            for (left, right) in zip(lhs.keys, rhs.keys) {
                if left.missing != right.missing { return right.missing }
                let order = left.compare(right)
                if order != 0 { return descending ? order > 0 : order < 0 }
            }
            return lhs.position < rhs.position
        }.map(\.position)
    }

    /// Seconds since 1970 of a date taken, read as ISO 8601 (`2024-06-01`, `2024-06-01T10:20`,
    /// `…:30.5+02:00`, `…Z`) or EXIF style (`2024:06:01 10:20:30`); nil when unreadable. A time
    /// without an offset is read as UTC, so the order never depends on the build machine's zone.
    package static func instant(_ text: String?) -> Double? {
        guard let text else { return nil }
        let chars = Array(text.utf8.prefix(64))
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= chars.count else { return nil }
            var value = 0
            for byte in chars[start..<start + count] {
                guard byte >= 0x30 && byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), chars.count >= 10, chars[4] == chars[7],
            chars[4] == UInt8(ascii: "-") || chars[4] == UInt8(ascii: ":"),
            let month = number(5, 2), let day = number(8, 2), (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        var seconds = Double(daysFromCivil(year: year, month: month, day: day)) * 86_400
        var rest = 10
        if chars.count >= 16, chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " "),
            chars[13] == UInt8(ascii: ":"),
            let hour = number(11, 2), let minute = number(14, 2), hour < 24, minute < 60
        {
            seconds += Double(hour * 3600 + minute * 60)
            rest = 16
            if chars.count >= 19, chars[16] == UInt8(ascii: ":"), let second = number(17, 2), second < 61 {
                seconds += Double(second)
                rest = 19
                if rest < chars.count, chars[rest] == UInt8(ascii: ".") {
                    var end = rest + 1
                    while end < chars.count, chars[end] >= 0x30 && chars[end] <= 0x39 { end += 1 }
                    if end > rest + 1, let fraction = Double("0" + String(decoding: chars[rest..<end], as: UTF8.self)) {
                        seconds += fraction
                    }
                    rest = end
                }
            }
            // An offset: `Z`, `+02:00` or `+0200`; local time minus the offset is UTC.
            if rest < chars.count, chars[rest] == UInt8(ascii: "+") || chars[rest] == UInt8(ascii: "-"),
                let hours = number(rest + 1, 2)
            {
                let minutes = number(rest + 3, 2) ?? number(rest + 4, 2) ?? 0
                let sign: Double = chars[rest] == UInt8(ascii: "+") ? 1 : -1
                if hours < 24 && minutes < 60 { seconds -= sign * Double(hours * 3600 + minutes * 60) }
            }
        }
        return seconds
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// A run of a name: digits compare as numbers (`IMG 2` before `IMG 10`), text without case.
package enum NameChunk: Equatable {
    case text(String)
    /// Digits without leading zeros, and how many zeros there were (fewer first, as a tie-break).
    case digits(String, zeros: Int)

    package static func split(_ name: String) -> [NameChunk] {
        var chunks: [NameChunk] = []
        var current = ""
        var inDigits = false
        func flush() {
            guard !current.isEmpty else { return }
            if inDigits {
                let trimmed = current.drop { $0 == "0" }
                chunks.append(.digits(String(trimmed), zeros: current.count - trimmed.count))
            } else {
                chunks.append(.text(current.lowercased()))
            }
            current = ""
        }
        for character in name.prefix(300) {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inDigits { flush() }
            inDigits = isDigit
            current.append(character)
        }
        flush()
        return chunks
    }

    /// -1, 0 or 1. Numbers come before text at the same place; leading zeros only break ties
    /// (`IMG 2`, `IMG 02`, `IMG 2 beach`).
    package static func compare(_ lhs: [NameChunk], _ rhs: [NameChunk]) -> Int {
        var zeros = 0
        for (left, right) in zip(lhs, rhs) {
            switch (left, right) {
            case let (.digits(a, zerosA), .digits(b, zerosB)):
                if a.count != b.count { return a.count < b.count ? -1 : 1 }
                if a != b { return a < b ? -1 : 1 }
                if zeros == 0, zerosA != zerosB { zeros = zerosA < zerosB ? -1 : 1 }
            case let (.text(a), .text(b)):
                if a != b {
                    return a.unicodeScalars.map(\.value).lexicographicallyPrecedes(b.unicodeScalars.map(\.value))
                        ? -1 : 1
                }
            case (.digits, .text): return -1
            case (.text, .digits): return 1
            }
        }
        if lhs.count != rhs.count { return lhs.count < rhs.count ? -1 : 1 }
        return zeros
    }
}
