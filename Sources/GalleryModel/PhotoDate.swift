import Foundation

/// A date as manifests and files write it: `YYYY-MM-DD`, optionally followed by `THH:MM[:SS]` (or a
/// space) and an offset or `Z`.
///
/// The one reading of date text: the renderer shows it in the site's language and the metadata
/// readers keep its `machine` form, so the two cannot disagree about what a date is.
package struct PhotoDate: Sendable, Equatable {
    package var year: Int
    package var month: Int
    package var day: Int
    /// The hour and minute, when the text has a valid time.
    package var hour: Int?
    package var minute: Int?
    /// The date as an HTML date string, for `<time datetime>`: the date, then the time with its
    /// seconds when given, then the offset when it is valid (`Z` or `±HH:MM`).
    package var machine: String

    /// Reads the date at the start of `text`; nil when it does not start with a valid `YYYY-MM-DD`.
    package init?(_ text: String) {
        let chars = Array(text)
        func digits(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count, range.allSatisfy({ chars[$0].isASCII && chars[$0].isNumber }) else {
                return nil
            }
            return Int(String(chars[range]))
        }
        guard let year = digits(0..<4), chars.count >= 10, chars[4] == "-", chars[7] == "-",
            let month = digits(5..<7), let day = digits(8..<10), (1...12).contains(month), (1...31).contains(day)
        else {
            return nil
        }
        (self.year, self.month, self.day) = (year, month, day)
        machine = String(chars[0..<10])
        if chars.count >= 16, chars[10] == "T" || chars[10] == " ", let hour = digits(11..<13), chars[13] == ":",
            let minute = digits(14..<16), hour < 24, minute < 60
        {
            (self.hour, self.minute) = (hour, minute)
            var time = String(chars[11..<16])
            var rest = 16
            if chars.count >= 19, chars[16] == ":", let second = digits(17..<19), second < 60 {
                time += String(chars[16..<19])
                rest = 19
            }
            let zone = String(chars[rest...])
            let validZone =
                zone.isEmpty || zone == "Z"
                || (zone.count == 6 && (zone.first == "+" || zone.first == "-")
                    && digits((rest + 1)..<(rest + 3)) != nil && chars[rest + 3] == ":"
                    && digits((rest + 4)..<(rest + 6)) != nil)
            machine += "T" + time + (validZone ? zone : "")
        }
    }
}
