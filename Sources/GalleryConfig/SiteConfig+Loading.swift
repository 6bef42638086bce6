import Foundation
import GalleryModel

extension SiteConfig {
    /// Reads, substitutes and validates a config file.
    ///
    /// The file is parsed into `JSONValue` first, so that `${ENV}` references can be replaced and a
    /// bad value can be quoted in the error, then decoded with `Codable` into `SiteConfigFile`.
    /// - Parameters:
    ///   - file: The config file; relative paths in it resolve against its folder.
    ///   - environment: Where `${NAME}` references are looked up.
    /// - Throws: `ConfigError` naming the file, the key and the bad value.
    public static func load(
        from file: URL,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> SiteConfig {
        let name = file.path
        guard let data = FileManager.default.contents(atPath: file.path) else {
            let problem =
                FileManager.default.fileExists(atPath: file.path)
                ? "cannot read the file; check its permissions"
                : "no such file; run galleryssg in the site's folder or pass --config PATH"
            throw ConfigError(file: name, key: "", problem)
        }
        return try parse(data, file: file, environment: environment)
    }

    /// Parses config bytes as if read from `file`.
    /// - Throws: `ConfigError`.
    package static func parse(_ data: Data, file: URL, environment: [String: String]) throws -> SiteConfig {
        let name = file.path
        try checkSyntax(data, file: name)
        let raw: JSONValue
        do {
            raw = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ConfigError(file: name, key: "", "cannot be read as JSON text; save it as UTF-8")
        }
        guard case .object = raw else {
            throw ConfigError(file: name, key: "", "expected a JSON object at the top level, got \(raw.kind)")
        }
        let validator = ConfigValidator(file: file, environment: environment)
        try validator.checkKeys(raw)
        var substitution = EnvironmentSubstitution(environment: environment, file: name)
        let substituted = try substitution.apply(to: raw)
        let decoded: SiteConfigFile
        do {
            decoded = try JSONDecoder().decode(SiteConfigFile.self, from: JSONEncoder().encode(substituted))
        } catch let error as DecodingError {
            throw ConfigError(decoding: error, in: substituted, file: name)
        } catch let error as ConfigError {
            throw error
        }
        return try validator.validate(decoded, variables: substitution.variables)
    }

    /// Refuses what is not JSON, naming the line and column, before `JSONDecoder` reads the file
    /// (it names no place, and takes trailing commas, which JSON does not).
    private static func checkSyntax(_ data: Data, file: String) throws {
        let bom: [UInt8] = [0xef, 0xbb, 0xbf]
        let text = data.starts(with: bom) ? data.dropFirst(bom.count) : data
        // UTF-16 and UTF-32 files (zero bytes among the first four) are left to `JSONDecoder`.
        guard !text.prefix(4).contains(0), !text.starts(with: [0xfe, 0xff]), !text.starts(with: [0xff, 0xfe]) else {
            return
        }
        do {
            try JSONSyntax.check(text)
        } catch {
            throw ConfigError(file: file, syntax: error)
        }
    }
}

extension ConfigError {
    /// Turns a `DecodingError` into a message naming the key and quoting the value found there.
    package init(decoding error: DecodingError, in document: JSONValue, file: String) {
        switch error {
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            let found = document.value(at: context.codingPath)
            self.init(
                file: file, key: context.codingPath.dotted,
                "expected \(Self.describe(type)), got \(found?.quoted ?? "nothing")")
        case .keyNotFound(let key, let context):
            self.init(file: file, key: (context.codingPath + [key]).dotted, "missing; this key is required")
        case .dataCorrupted(let context):
            let found = document.value(at: context.codingPath)
            let wanted = context.debugDescription.contains("Int") ? "a whole number" : "a different value"
            self.init(
                file: file, key: context.codingPath.dotted, "expected \(wanted), got \(found?.quoted ?? "nothing")")
        @unknown default:
            self.init(
                file: file, key: "",
                "a value has the wrong type; check it against the configuration reference (docs/configuration.md)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type: return "a whole number"
        case is Double.Type: return "a number"
        case is Bool.Type: return "true or false"
        case is [Int].Type: return "an array of whole numbers"
        case is [String].Type: return "an array of strings"
        default:
            let name = String(describing: type)
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object"
        }
    }
}

/// Replaces `${NAME}` in every string value with the environment variable `NAME`.
struct EnvironmentSubstitution {
    let environment: [String: String]
    let file: String
    /// Key path to the (last) variable substituted into it, for error hints such as "check FLICKR_API_KEY".
    private(set) var variables: [String: String] = [:]

    init(environment: [String: String], file: String) {
        self.environment = environment
        self.file = file
    }

    mutating func apply(to value: JSONValue, path: String = "") throws -> JSONValue {
        switch value {
        case .string(let text): return .string(try substitute(text, path: path))
        case .array(let items):
            return .array(try items.enumerated().map { try apply(to: $0.element, path: "\(path)[\($0.offset)]") })
        case .object(let object):
            var result: [String: JSONValue] = [:]
            for (key, item) in object {
                result[key] = try apply(to: item, path: path.isEmpty ? key : "\(path).\(key)")
            }
            return .object(result)
        default: return value
        }
    }

    mutating func substitute(_ text: String, path: String) throws -> String {
        guard text.contains("${") else { return text }
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                throw ConfigError(
                    file: file, key: path, "unclosed \"${\" in \(JSONValue.string(text).quoted); write ${NAME}")
            }
            let name = String(rest[start.upperBound..<end])
            guard EnvironmentName.isValid(name) else {
                throw ConfigError(file: file, key: path, "\"${\(name)}\" is not a valid environment variable name")
            }
            guard let replacement = environment[name] else {
                throw ConfigError(
                    file: file, key: path,
                    "environment variable \(name) is not set; export \(name)=… before running galleryssg")
            }
            result += replacement
            variables[path] = name
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }
}
