extension JSONSyntax {
    /// What can be wrong with a JSON document; the words for each are made here and nowhere else.
    enum Problem {
        case empty
        case expectedKey(found: UInt8)
        case expectedColon(after: String, found: UInt8)
        case expectedComma(Kind, after: String, found: UInt8)
        case notAValue(found: UInt8?, for: String)
        case trailingComma(Kind, after: String)
        case controlCharacter(UInt8)
        case badEscape(UInt8)
        case badUnicodeEscape
        case numberEnds(NumberPhase)
        case leadingZero
        case tooDeep(Int)
        case afterEnd(found: UInt8)
        case stringNotClosed(Position)
        case endsInside(Kind, Position)
        case unreadableValue
        case notText

        var words: String {
            switch self {
            case .empty:
                return "the file is empty; expected a JSON value"
            case .expectedKey(let byte):
                return "expected a key in double quotes, found \(Self.describe(byte))" + Self.hint(byte)
            case .expectedColon(let key, let byte):
                return "expected \":\" after the key \(key), found \(Self.describe(byte))"
            case .expectedComma(let kind, let name, let byte):
                let missing =
                    [UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "[")].contains(byte)
                    ? "; add a comma between the two" : ", found \(Self.describe(byte))"
                return "expected \",\" or \(Self.closer(kind)) after \(Self.value(kind, name))" + missing
            case .notAValue(let byte, let name):
                let what = name == "the document" ? "expected a JSON value" : "expected a value for \(name)"
                return what + (byte.map { ", found \(Self.describe($0))" + Self.hint($0) } ?? "")
            case .trailingComma(let kind, let name):
                return
                    "trailing comma after \(Self.value(kind, name)); remove it (JSON allows no comma before \(Self.closer(kind)))"
            case .controlCharacter(UInt8(ascii: "\n")):
                return "a line break inside a string; close the string with a double quote, or write \\n"
            case .controlCharacter(UInt8(ascii: "\t")):
                return "a tab inside a string; write it as \\t"
            case .controlCharacter(let byte):
                let code = Self.hex(byte)
                return "control character U+\(code) inside a string; write it as \\u\(code)"
            case .badEscape(let byte):
                return "\"\\\(Self.printable(byte))\" is not a JSON escape; write \"\\\\\" for a backslash"
            case .badUnicodeEscape:
                return "expected four hex digits after \"\\u\""
            case .numberEnds(.minus):
                return "expected a digit after \"-\""
            case .numberEnds(.dot):
                return "expected a digit after the decimal point"
            case .numberEnds:
                return "expected a digit in the number's exponent"
            case .leadingZero:
                return "a number cannot start with 0 followed by a digit; write 7, not 07, or quote it as a string"
            case .tooDeep(let levels):
                return "arrays and objects nest more than \(levels) levels deep here"
            case .afterEnd(let byte):
                return "found \(Self.describe(byte)) after the end of the top-level value; remove it"
            case .stringNotClosed(let start):
                return "the file ends inside the string that starts at \(start); close it with a double quote"
            case .unreadableValue:
                return "this value cannot be read (a number too large, or text that is not UTF-8?)"
            case .notText:
                return "cannot be read as text; save the file as UTF-8"
            case .endsInside(let kind, let opened):
                let what = kind == .object ? "object" : "array"
                return "the file ends before the \(Self.closer(kind)) that closes the \(what) opened at \(opened)"
            }
        }

        /// `"title"`, the key as written, cut at 60 characters.
        static func quote(_ key: [UInt8]) -> String {
            let text = String(decoding: key, as: UTF8.self)
            return "\"\(text.count > 60 ? text.prefix(60) + "…" : Substring(text))\""
        }

        private static func closer(_ kind: Kind) -> String { kind == .object ? "\"}\"" : "\"]\"" }

        private static func value(_ kind: Kind, _ name: String) -> String {
            kind == .object ? "the value of \(name)" : name
        }

        private static func describe(_ byte: UInt8) -> String {
            switch byte {
            case UInt8(ascii: "\""): return "a double quote"
            case 0x21...0x7e: return "\"\(Character(Unicode.Scalar(byte)))\""
            case 0x80...: return "a non-ASCII character"
            default: return "control character U+\(hex(byte))"
            }
        }

        private static func hint(_ byte: UInt8) -> String {
            switch byte {
            case UInt8(ascii: "'"): return "; JSON strings take double quotes, not single ones"
            case UInt8(ascii: "/"): return "; JSON has no comments, remove it"
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                return "; write text in double quotes, and true, false and null in lower case"
            default: return ""
            }
        }

        private static func printable(_ byte: UInt8) -> String {
            (0x21...0x7e).contains(byte) ? String(Character(Unicode.Scalar(byte))) : "u+\(hex(byte))"
        }

        private static func hex(_ byte: UInt8) -> String {
            let digits = String(byte, radix: 16, uppercase: true)
            return String(repeating: "0", count: 4 - digits.count) + digits
        }
    }
}
