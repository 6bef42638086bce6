import Foundation
import Yams

/// TOML values: strings, numbers, booleans, dates, arrays and inline tables, as YAML `Node`s.
extension TOMLSubset {
    mutating func value() throws(Failure) -> Node {
        switch peek {
        case "\"", "'": return Node(try string(), Tag(.str))
        case "[":
            advance()
            var items: [Node] = []
            while true {
                skipSpaces(newlines: true)
                if peek == "]" { break }
                items.append(try value())
                skipSpaces(newlines: true)
                guard peek == "," else { break }
                advance()
            }
            guard peek == "]" else { throw fail("an array must end with ]") }
            advance()
            return Node(items)
        case "{":
            advance()
            let table = Table()
            skipSpaces()
            while peek != "}" {
                try keyValue(into: table)
                skipSpaces()
                guard peek == "," else { break }
                advance()
                skipSpaces()
            }
            guard peek == "}" else { throw fail("an inline table must end with } on the same line") }
            advance()
            return Self.node(table)
        default: return try bare()
        }
    }

    /// A boolean, number or date, written without quotes.
    private mutating func bare() throws(Failure) -> Node {
        var token = ""
        while let scalar = peek,
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                || "+-_.:".unicodeScalars.contains(scalar)
                || (scalar == " " && Self.isDate(token) && token.count == 10 && index + 1 < text.count
                    && ("0"..."9").contains(text[index + 1]))
        {
            token.unicodeScalars.append(scalar)
            advance()
        }
        switch token {
        case "true", "false": return Node(token, Tag(.bool))
        case "inf", "+inf", "-inf", "nan", "+nan", "-nan": return Node(token, Tag(.float))
        default: break
        }
        if Self.isDate(token) || (token.count >= 8 && token.dropFirst(2).first == ":") { return Node(token, Tag(.str)) }
        let digits = token.replacingOccurrences(of: "_", with: "")
        if Int(digits) != nil { return Node(digits, Tag(.int)) }
        if Double(digits) != nil, !digits.hasPrefix(".") { return Node(digits, Tag(.float)) }
        throw fail(
            token.isEmpty
                ? "expected a value" : "\"\(token.prefix(40))\" is not a TOML value; put text in quotes")
    }

    private static func isDate(_ token: String) -> Bool {
        let scalars = Array(token.unicodeScalars.prefix(10))
        return scalars.count == 10 && scalars[4] == "-" && scalars[7] == "-"
            && scalars.enumerated().allSatisfy { [4, 7].contains($0.offset) || ("0"..."9").contains($0.element) }
    }

    /// A basic (`"…"`), literal (`'…'`) or multi-line (`"""…"""`, `'''…'''`) string.
    mutating func string() throws(Failure) -> String {
        guard let quote = peek else { throw fail("expected a string") }
        let literal = quote == "'"
        advance()
        var multiLine = false
        if peek == quote, index + 1 < text.count, text[index + 1] == quote {
            advance()
            advance()
            multiLine = true
            if peek == "\r" { advance() }
            if peek == "\n" { advance() }  // a newline right after the opening quotes is trimmed
        } else if peek == quote {
            advance()
            return ""
        }
        var result = ""
        while true {
            guard let scalar = peek else { throw fail("a string is never closed") }
            if scalar == "\n" && !multiLine { throw fail("a string must end on its line; use \"\"\" for several") }
            if scalar == quote {
                if !multiLine {
                    advance()
                    return result
                }
                if index + 2 < text.count, text[index + 1] == quote, text[index + 2] == quote {
                    advance()
                    advance()
                    advance()
                    return result
                }
            }
            if scalar == "\\" && !literal {
                advance()
                try escape(into: &result, multiLine: multiLine)
                continue
            }
            result.unicodeScalars.append(scalar)
            advance()
        }
    }

    private mutating func escape(into result: inout String, multiLine: Bool) throws(Failure) {
        guard let scalar = peek else { throw fail("a string is never closed") }
        advance()
        switch scalar {
        case "n": result += "\n"
        case "t": result += "\t"
        case "r": result += "\r"
        case "\"", "\\": result.unicodeScalars.append(scalar)
        case "u", "U":
            var hex = ""
            for _ in 0..<(scalar == "u" ? 4 : 8) {
                guard let digit = peek else { break }
                hex.unicodeScalars.append(digit)
                advance()
            }
            guard let code = UInt32(hex, radix: 16), let decoded = Unicode.Scalar(code) else {
                throw fail("\\\(scalar)\(hex) is not a Unicode character")
            }
            result.unicodeScalars.append(decoded)
        case "\n", " ", "\t", "\r":  // in a multi-line string, a line-ending backslash joins the lines
            guard multiLine else { throw fail("\\ must be followed by an escape such as \\n or \\\"") }
            while let next = peek, next == " " || next == "\t" || next == "\r" || next == "\n" { advance() }
        default: throw fail("\\\(scalar) is not an escape TOML knows")
        }
    }
}
