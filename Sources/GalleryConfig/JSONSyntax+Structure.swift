/// How `JSONSyntax` reads punctuation, the start of each value, and numbers, and names the value it is in.
extension JSONSyntax {
    /// Reads a byte between tokens: punctuation, or the first byte of a value or key.
    mutating func structure(_ byte: UInt8) throws(Failure) {
        switch state {
        case .value(let afterComma):
            if afterComma && byte == UInt8(ascii: "]") { throw trailingComma() }
            try beginValue(byte)
        case .valueOrClose:
            if byte == UInt8(ascii: "]") { close() } else { try beginValue(byte) }
        case .keyOrClose, .keyAfterComma:
            if byte == UInt8(ascii: "\"") {
                tokenStart = here
                key.removeAll(keepingCapacity: true)
                state = .string(key: true)
            } else if byte == UInt8(ascii: "}") {
                if case .keyAfterComma = state { throw trailingComma() }
                close()
            } else {
                throw failure(.expectedKey(found: byte))
            }
        case .colon:
            guard byte == UInt8(ascii: ":") else {
                throw failure(.expectedColon(after: Problem.quote(key), found: byte))
            }
            state = .value(afterComma: false)
        case .commaOrClose:
            let kind = stack[stack.count - 1].kind
            switch byte {
            case UInt8(ascii: ","):
                lastComma = here
                state = kind == .object ? .keyAfterComma : .value(afterComma: true)
            case UInt8(ascii: "}") where kind == .object, UInt8(ascii: "]") where kind == .array:
                close()
            default:
                throw failure(.expectedComma(kind, after: valueName, found: byte))
            }
        default:
            throw failure(.afterEnd(found: byte))
        }
    }

    /// Starts the value whose first byte is `byte`.
    mutating func beginValue(_ byte: UInt8) throws(Failure) {
        if stack.last?.kind == .array { stack[stack.count - 1].items += 1 }
        tokenStart = here
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard stack.count < maxDepth else { throw failure(.tooDeep(maxDepth)) }
            let kind: Kind = byte == UInt8(ascii: "{") ? .object : .array
            stack.append(Frame(kind: kind, opened: here, savedKey: key))
            key = []
            state = kind == .object ? .keyOrClose : .valueOrClose
        case UInt8(ascii: "\""): state = .string(key: false)
        case UInt8(ascii: "-"): state = .number(.minus)
        case UInt8(ascii: "0"): state = .number(.zero)
        case UInt8(ascii: "1")...UInt8(ascii: "9"): state = .number(.integer)
        case UInt8(ascii: "t"): state = .literal(index: 0, matched: 1)
        case UInt8(ascii: "f"): state = .literal(index: 1, matched: 1)
        case UInt8(ascii: "n"): state = .literal(index: 2, matched: 1)
        default: throw failure(.notAValue(found: byte, for: valueName))
        }
    }

    /// Reads a byte of a number; false when the number ended before it.
    mutating func number(_ phase: NumberPhase, _ byte: UInt8) throws(Failure) -> Bool {
        let digit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        let exponent = byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        switch phase {
        case .minus:
            guard digit else { throw failure(.numberEnds(phase)) }
            state = .number(byte == UInt8(ascii: "0") ? .zero : .integer)
        case .dot, .exponentSign:
            guard digit else { throw failure(.numberEnds(phase)) }
            state = .number(phase == .dot ? .fraction : .exponent)
        case .exponentMark:
            if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                state = .number(.exponentSign)
            } else {
                guard digit else { throw failure(.numberEnds(phase)) }
                state = .number(.exponent)
            }
        case .zero, .integer, .fraction:
            if digit {
                guard phase != .zero else { throw Failure(position: tokenStart, problem: Problem.leadingZero.words) }
            } else if byte == UInt8(ascii: ".") && phase != .fraction {
                state = .number(.dot)
            } else if exponent {
                state = .number(.exponentMark)
            } else {
                valueEnded()
                return false
            }
        case .exponent:
            if !digit {
                valueEnded()
                return false
            }
        }
        return true
    }

    mutating func valueEnded() {
        state = stack.isEmpty ? .end : .commaOrClose
    }

    mutating func close() {
        key = stack.removeLast().savedKey
        valueEnded()
    }

    func trailingComma() -> Failure {
        let kind = stack[stack.count - 1].kind
        return Failure(position: lastComma, problem: Problem.trailingComma(kind, after: valueName).words)
    }

    func failure(_ problem: Problem) -> Failure {
        Failure(position: here, problem: problem.words)
    }

    /// How the current value is named in messages: `"title"`, `item 3 of "widths"`.
    var valueName: String {
        guard let frame = stack.last else { return "the document" }
        switch frame.kind {
        case .object: return Problem.quote(key)
        case .array: return "item \(frame.items) of \(containerName(stack.count - 1))"
        }
    }

    /// How the array or object at `stack[index]` is named.
    func containerName(_ index: Int) -> String {
        guard index > 0 else { return stack[0].kind == .object ? "the top-level object" : "the top-level array" }
        let parent = stack[index - 1]
        switch parent.kind {
        case .object: return Problem.quote(stack[index].savedKey)
        case .array: return "item \(parent.items) of \(containerName(index - 1))"
        }
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte)
    }
}
