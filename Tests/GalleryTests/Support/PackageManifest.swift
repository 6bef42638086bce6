import Foundation

/// The targets Package.swift declares, read from its text, for `ArchitectureTests`.
///
/// Reads the manifest as Swift syntax at the level it is written (the `targets:` array, each
/// target's `name:`, `path:` and `dependencies:`), rather than running `swift package
/// dump-package`, which would take a toolchain process per test run.
struct PackageManifest {
    /// One target: where its files are and what it depends on.
    struct Target: Equatable {
        var name: String
        /// The kind as Package.swift writes it: `target`, `testTarget`, `systemLibrary`…
        var kind: String
        /// Its folder, relative to the package root.
        var path: String
        /// The targets of this package it depends on: stages, C libraries, the CLI.
        var targets: Set<String>
        /// The products of other packages it depends on (each named as the module it makes).
        var products: Set<String>
    }

    var targets: [String: Target]

    init(_ manifest: String) throws {
        guard let start = manifest.firstMatch(of: /(?m)^\s*targets:\s*\[/) else {
            throw ManifestProblem("no `targets: [` line in Package.swift")
        }
        var targets: [String: Target] = [:]
        for item in Self.items(in: manifest[start.range.upperBound...]) {
            guard let kind = item.firstMatch(of: /^\s*\.(\w+)\(/)?.1, let name = item.firstMatch(of: /name: "(\w+)"/)?.1
            else { throw ManifestProblem("a target without `.kind(name:`: \(item)") }
            var target = Target(
                name: String(name), kind: String(kind),
                path: item.firstMatch(of: /path: "([^"]+)"/).map { String($0.1) }
                    ?? (kind == "testTarget" ? "Tests/" : "Sources/") + name,
                targets: [], products: [])
            if let dependencies = item.firstMatch(of: /dependencies:\s*\[/) {
                for dependency in Self.items(in: item[dependencies.range.upperBound...]) {
                    guard let named = dependency.firstMatch(of: /"(\w+)"/)?.1 else {
                        throw ManifestProblem("\(name): a dependency without a quoted name: \(dependency)")
                    }
                    if dependency.contains(".product(") {
                        target.products.insert(String(named))
                    } else {
                        target.targets.insert(String(named))
                    }
                }
            }
            targets[target.name] = target
        }
        self.targets = targets
    }

    /// The items of the bracketed list that `text` begins inside of, up to its closing bracket:
    /// split at the commas outside brackets, parentheses and strings, with `//` comments left out.
    static func items(in text: Substring) -> [String] {
        var items: [String] = []
        var item = ""
        var depth = 0
        var inString = false
        var inComment = false
        var previous: Character = " "
        for character in text {
            defer { previous = character }
            if inComment {
                if character == "\n" { inComment = false }
                continue
            }
            if inString {
                item.append(character)
                if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "/" where previous == "/":
                item.removeLast()
                inComment = true
                continue
            case "\"": inString = true
            case "(", "[": depth += 1
            case ")", "]":
                if depth == 0 {
                    if !item.allSatisfy(\.isWhitespace) { items.append(item) }
                    return items
                }
                depth -= 1
            case "," where depth == 0:
                items.append(item)
                item = ""
                continue
            default: break
            }
            item.append(character)
        }
        return items
    }
}

/// What in Package.swift could not be read, and where.
struct ManifestProblem: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
