import Foundation

/// A strict check of JSON syntax (RFC 8259) that says where a document goes wrong and what was expected.
///
/// `JSONDecoder` on Linux reports no position at all ("The given data was not valid JSON."), and it
/// accepts what JSON does not: trailing commas, numbers with leading zeros, raw control characters in
/// strings, and any escape in a string it is not asked to decode. Config files and manifests are checked
/// here first, so a document is accepted exactly when it is JSON, and a refusal names the line, the
/// column and what should have been there. The check is fed bytes chunk by chunk, so a manifest of any
/// size is checked without holding it whole. It reads no values: `JSONDecoder` still does that.
package struct JSONSyntax {
    /// A place in the document: 1-based line and column (in characters), and the 0-based byte offset.
    package struct Position: Equatable, Sendable, CustomStringConvertible {
        package var line = 1
        package var column = 1
        package var offset = 0
        package var description: String { "\(line):\(column)" }

        package init(line: Int = 1, column: Int = 1, offset: Int = 0) {
            (self.line, self.column, self.offset) = (line, column, offset)
        }
    }

    /// Where the document stops being JSON, and why, in words.
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        package let position: Position
        /// What is wrong and how to fix it, without the position.
        package let problem: String
        package var description: String { "\(position): \(problem)" }
    }

    enum Kind { case object, array }

    /// An open array or object.
    struct Frame {
        var kind: Kind
        var opened: Position
        /// The innermost object's key when this one opened, restored when it closes.
        var savedKey: [UInt8]
        /// For an array, how many items have begun.
        var items = 0
    }

    enum NumberPhase { case minus, zero, integer, dot, fraction, exponentMark, exponentSign, exponent }

    enum State {
        /// A value must come: the document's, or one after `:`; `afterComma` for an array's next item.
        case value(afterComma: Bool)
        case valueOrClose, keyOrClose, keyAfterComma, colon, commaOrClose, end
        case string(key: Bool), escape(key: Bool), unicode(key: Bool, left: Int)
        case number(NumberPhase)
        case literal(index: Int, matched: Int)
    }

    static let literals: [[UInt8]] = [Array("true".utf8), Array("false".utf8), Array("null".utf8)]

    /// Arrays and objects allowed inside each other, the document's own included.
    let maxDepth: Int
    var state = State.value(afterComma: false)
    var stack: [Frame] = []
    /// The innermost object's current key, as written (escapes left as they are), for messages.
    var key: [UInt8] = []
    /// Where the string, number or literal being read began.
    var tokenStart = Position()
    var lastComma = Position()
    /// The position of the next byte.
    var here = Position(line: 1, column: 0, offset: 0)
    /// Byte offset whose position `marked` records (see `mark(_:)`).
    var markOffset = -1
    package private(set) var marked: Position?

    /// A check of a document whose first byte fed is at `offset` of the file (after a byte order mark, say).
    package init(maxDepth: Int = 512, offset: Int = 0) {
        self.maxDepth = maxDepth
        here.offset = offset
    }

    /// Asks for the position of byte `offset` to be recorded in `marked` as the bytes go by.
    package mutating func mark(_ offset: Int) {
        markOffset = offset
    }

    /// Checks the whole of `data`.
    /// - Parameter maxDepth: 512, as `JSONDecoder`; more for a value whose nesting is checked elsewhere.
    /// - Throws: `Failure` at the first place that is not JSON.
    package static func check(_ data: Data, maxDepth: Int = 512) throws(Failure) {
        var syntax = JSONSyntax(maxDepth: maxDepth)
        let failure = data.withUnsafeBytes { buffer -> Failure? in
            do throws(Failure) {
                try syntax.feed(buffer)
                try syntax.finish()
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Checks the next bytes of the document.
    /// - Throws: `Failure` at the first place that is not JSON.
    package mutating func feed(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        for byte in bytes {
            if byte & 0xc0 != 0x80 { here.column += 1 }
            if here.offset == markOffset { marked = here }
            while try !step(byte) {}
            if byte == UInt8(ascii: "\n") {
                here.line += 1
                here.column = 0
            }
            here.offset += 1
        }
    }

    /// The failure for a value that is JSON but that `JSONDecoder` cannot read, at `position`.
    package static func unreadable(at position: Position) -> Failure {
        Failure(position: position, problem: Problem.unreadableValue.words)
    }

    /// The failure for a document that is not UTF-8, UTF-16 or UTF-32 text.
    package static var notText: Failure {
        Failure(position: Position(), problem: Problem.notText.words)
    }

    /// Says whether the document ended where JSON may end.
    /// - Throws: `Failure` at the end when it stops inside a value, or holds none.
    package mutating func finish() throws(Failure) {
        var end = here
        end.column += 1
        switch state {
        case .end:
            return
        case .number(let phase) where stack.isEmpty:
            switch phase {
            case .zero, .integer, .fraction, .exponent: return
            default: throw Failure(position: end, problem: Problem.numberEnds(phase).words)
            }
        case .string, .escape, .unicode:
            throw Failure(position: end, problem: Problem.stringNotClosed(tokenStart).words)
        case .literal:
            throw Failure(position: tokenStart, problem: Problem.notAValue(found: nil, for: valueName).words)
        default:
            guard let frame = stack.last else {
                throw Failure(position: end, problem: Problem.empty.words)
            }
            throw Failure(position: end, problem: Problem.endsInside(frame.kind, frame.opened).words)
        }
    }

    /// Reads one byte in the current state; false when the byte ended a number and must be read again.
    mutating func step(_ byte: UInt8) throws(Failure) -> Bool {
        switch state {
        case .string(let isKey):
            switch byte {
            case UInt8(ascii: "\""):
                if isKey { state = .colon } else { valueEnded() }
            case UInt8(ascii: "\\"): state = .escape(key: isKey)
            case 0..<0x20: throw failure(.controlCharacter(byte))
            default: if isKey && key.count < 80 { key.append(byte) }
            }
        case .escape(let isKey):
            switch byte {
            case UInt8(ascii: "u"): state = .unicode(key: isKey, left: 4)
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                state = .string(key: isKey)
            default: throw failure(.badEscape(byte))
            }
            if isKey && key.count < 80 { key += [UInt8(ascii: "\\"), byte] }
        case .unicode(let isKey, let left):
            guard Self.isHexDigit(byte) else { throw failure(.badUnicodeEscape) }
            state = left == 1 ? .string(key: isKey) : .unicode(key: isKey, left: left - 1)
            if isKey && key.count < 80 { key.append(byte) }
        case .number(let phase):
            return try number(phase, byte)
        case .literal(let index, let matched):
            let literal = Self.literals[index]
            guard byte == literal[matched] else {
                throw Failure(position: tokenStart, problem: Problem.notAValue(found: literal[0], for: valueName).words)
            }
            if matched + 1 == literal.count {
                valueEnded()
            } else {
                state = .literal(index: index, matched: matched + 1)
            }
        default:
            if Self.isWhitespace(byte) { return true }
            try structure(byte)
        }
        return true
    }
}
