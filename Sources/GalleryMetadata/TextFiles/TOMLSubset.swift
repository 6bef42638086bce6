import Foundation
import Yams

/// The TOML that Hugo users write between `+++` lines, read into the same `Node`s as YAML front matter.
///
/// A subset of TOML 1.0 (https://toml.io/en/v1.0.0), written here because the offline package set
/// has no pure-Swift TOML reader (TOMLKit wraps toml++, C++ with exceptions): `key = value` with
/// bare, quoted and dotted keys; basic, literal and multi-line strings; integers, floats, booleans;
/// dates and times, kept as written; arrays (over several lines too); inline tables; `[table]` and
/// `[[array.of.tables]]` headers. Not read: hexadecimal, octal and binary integers, and keys
/// defined twice (refused, as TOML says).
struct TOMLSubset {
    /// A problem on a 1-based line of the TOML text.
    struct Failure: Error {
        var line: Int
        var reason: String
    }

    final class Table {
        var keys: [String] = []
        var values: [String: Entry] = [:]
        var lines: [String: Int] = [:]
    }

    enum Entry {
        case value(Node)
        case table(Table)
        case tables([Table])
    }

    let text: [Unicode.Scalar]
    var index = 0
    var line = 1

    /// The top-level keys of `source` with their values, and each key's 1-based line.
    static func parse(_ source: String) throws(Failure) -> (fields: [String: Node], lines: [String: Int]) {
        var parser = TOMLSubset(text: Array(source.unicodeScalars))
        let root = Table()
        try parser.document(root)
        var fields: [String: Node] = [:]
        for key in root.keys { fields[key] = root.values[key].map(node) }
        return (fields, root.lines)
    }

    private init(text: [Unicode.Scalar]) { self.text = text }

    private static func node(_ entry: Entry) -> Node {
        switch entry {
        case .value(let node): node
        case .table(let table): node(table)
        case .tables(let tables): Node(tables.map(node))
        }
    }

    static func node(_ table: Table) -> Node {
        Node(table.keys.compactMap { key in table.values[key].map { (Node(key), node($0)) } })
    }

    var peek: Unicode.Scalar? { index < text.count ? text[index] : nil }

    func fail(_ reason: String) -> Failure { Failure(line: line, reason: reason) }

    mutating func advance() {
        if peek == "\n" { line += 1 }
        index += 1
    }

    mutating func skipSpaces(newlines: Bool = false) {
        while let scalar = peek {
            if scalar == " " || scalar == "\t" || scalar == "\r" || (newlines && scalar == "\n") {
                advance()
            } else if scalar == "#" {
                while let next = peek, next != "\n" { advance() }
            } else {
                return
            }
        }
    }

    private mutating func document(_ root: Table) throws(Failure) {
        var current = root
        while true {
            skipSpaces(newlines: true)
            guard let scalar = peek else { return }
            if scalar == "[" {
                let headerLine = line
                advance()
                let many = peek == "["
                if many { advance() }
                let path = try keyPath()
                for _ in 0..<(many ? 2 : 1) {
                    guard peek == "]" else { throw fail("a table header must end with \(many ? "]]" : "]")") }
                    advance()
                }
                current = try table(at: path, in: root, many: many, line: headerLine)
            } else {
                try keyValue(into: current)
            }
            skipSpaces()
            guard peek == nil || peek == "\n" else { throw fail("expected the end of the line after a value") }
        }
    }

    /// The table a `[a.b]` or `[[a.b]]` header names, made where it is missing.
    private func table(at path: [String], in root: Table, many: Bool, line: Int) throws(Failure) -> Table {
        var table = root
        for (position, key) in path.enumerated() {
            let last = position == path.count - 1
            switch table.values[key] {
            case nil:
                let made = Table()
                table.keys.append(key)
                table.lines[key] = line
                table.values[key] = last && many ? .tables([made]) : .table(made)
                table = made
            case .table(let existing) where !last: table = existing
            case .tables(let list) where !last: table = list[list.count - 1]
            case .tables(let list) where many:
                let made = Table()
                table.values[key] = .tables(list + [made])
                table = made
            default: throw Failure(line: line, reason: "\"\(path.joined(separator: "."))\" is defined twice")
            }
        }
        return table
    }

    mutating func keyValue(into table: Table) throws(Failure) {
        let keyLine = line
        let path = try keyPath()
        guard peek == "=" else { throw fail("expected = after the key \"\(path.joined(separator: "."))\"") }
        advance()
        skipSpaces()
        let value = try self.value()
        let owner = try self.table(at: Array(path.dropLast()), in: table, many: false, line: keyLine)
        guard let key = path.last, owner.values[key] == nil else {
            throw Failure(line: keyLine, reason: "\"\(path.joined(separator: "."))\" is defined twice")
        }
        owner.keys.append(key)
        owner.lines[key] = keyLine
        owner.values[key] = .value(value)
    }

    private mutating func keyPath() throws(Failure) -> [String] {
        var path: [String] = []
        repeat {
            if !path.isEmpty { advance() }
            skipSpaces()
            if peek == "\"" || peek == "'" {
                path.append(try string())
            } else {
                var key = ""
                while let scalar = peek,
                    scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                        || scalar == "_" || scalar == "-"
                {
                    key.unicodeScalars.append(scalar)
                    advance()
                }
                guard !key.isEmpty else { throw fail("expected a key") }
                path.append(key)
            }
            skipSpaces()
        } while peek == "."
        return path
    }
}
