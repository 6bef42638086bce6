import Foundation

/// A problem with `site-config.json`, naming the file, the key path and the bad value.
public struct ConfigError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The config file the problem is in.
    package let file: String
    /// The dotted key path, such as `source.type` or `images.widths[2]`; empty for the whole file.
    package let key: String
    /// What is wrong and what to do, without the file and key.
    package let problem: String
    /// Where in the file, for a syntax error: 1-based line and column.
    package let line: Int?
    package let column: Int?

    /// `key: problem`, the part of the message that does not depend on where the file lives.
    package var message: String { key.isEmpty ? problem : "\(key): \(problem)" }

    public var description: String {
        guard let line, let column else { return "\(file): \(message)" }
        return "\(file):\(line):\(column): \(message)"
    }

    package init(file: String, key: String, _ problem: String) {
        self.file = file
        self.key = key
        self.problem = problem
        (line, column) = (nil, nil)
    }

    /// A syntax error at a place in the file.
    package init(file: String, syntax: JSONSyntax.Failure) {
        self.file = file
        key = ""
        problem = syntax.problem
        (line, column) = (syntax.position.line, syntax.position.column)
    }
}

extension Array where Element == CodingKey {
    /// A key path in the dotted form users write: `source.params.tags`, `images.widths[1]`.
    var dotted: String {
        var result = ""
        for key in self {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result
    }
}
