import Foundation
import GalleryConfig
import GalleryModel
import GalleryProviders  // JSONValue's subscript by key
import Testing

/// docs/site-config.schema.json, which editors use to complete and check a config, says what the loader does.
///
/// The schema is written by hand beside the loader, so these tests hold the two together: the same
/// keys at every level, the defaults of `SiteConfig.Defaults`, and each integer range's ends
/// accepted and the values just past them refused, naming the key; and the copy embedded in the
/// binary (`galleryssg schema`, `init`) is the file. `check_config_schema.py` validates the sample,
/// `init`'s files and the manual's examples against it with `jsonschema`.
@Suite struct ConfigSchemaTests {
    static let file = URL(fileURLWithPath: "/sites/demo/site-config.json")

    static func schema() throws -> JSONValue {
        let url = Fixtures.repository.appendingPathComponent("docs/site-config.schema.json")
        return try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
    }

    /// The schema of the object that a `SiteConfigFile.knownKeys` section names.
    static func section(_ name: String, in schema: JSONValue) -> JSONValue? {
        let sources = [
            "source/folder": "folderSource", "source/manifest": "manifestSource", "source/flickr": "flickrSource",
            "source/500px": "fiveHundredPxSource", "source/parse": "parseSource",
            "source/immich": "immichSource"
        ]
        if let definition = sources[name] { return schema["$defs"]?[definition] }
        return name.isEmpty ? schema : schema["properties"]?[name]
    }

    /// The schema of a dotted key such as `images.quality`.
    static func property(_ path: String, in schema: JSONValue) -> JSONValue? {
        path.split(separator: ".").reduce(JSONValue?.some(schema)) { $0?["properties"]?[String($1)] }
    }

    /// What `galleryssg schema` prints and `init` writes is docs/site-config.schema.json.
    @Test func theEmbeddedSchemaIsTheDocsFile() throws {
        let url = Fixtures.repository.appendingPathComponent("docs/site-config.schema.json")
        #expect(
            SiteConfigSchema.json + "\n" == (try String(contentsOf: url, encoding: .utf8)),
            "docs/site-config.schema.json changed: run Scripts/embed-schema.sh")
    }

    @Test func everyKeyTheLoaderKnowsAndNoOther() throws {
        let schema = try Self.schema()
        for (name, keys) in SiteConfigFile.knownKeys {
            let section = try #require(Self.section(name, in: schema), "no schema for \"\(name)\"")
            guard case .object(let properties)? = section["properties"] else {
                Issue.record("\"\(name)\" has no properties")
                continue
            }
            #expect(Set(properties.keys) == Set(keys), "\(name.isEmpty ? "top level" : name)")
            #expect(section["additionalProperties"] == .bool(false), "\(name): unknown keys are refused")
        }
        let types = SiteConfigFile.knownKeys.keys.filter { $0.hasPrefix("source/") }.map { String($0.dropFirst(7)) }
        #expect(Set(types) == Set(SiteConfig.sourceTypes))
        #expect(
            schema["properties"]?["source"]?["properties"]?["type"]?["enum"]
                == .array(SiteConfig.sourceTypes.map { .string($0) }))
        #expect(
            Self.property("deploy.host", in: schema)?["enum"]
                == .array(DeployHost.allCases.map { .string($0.rawValue) }))
        #expect(
            Self.property("deploy.plan", in: schema)?["enum"] == .array(HostPlan.allCases.map { .string($0.rawValue) }))
    }

    @Test func defaultsAreTheLoaders() throws {
        typealias D = SiteConfig.Defaults
        let schema = try Self.schema()
        let number = { (value: Int) in JSONValue.number(Double(value)) }
        let expected: [(String, JSONValue)] = [
            ("title", .string(D.title)), ("description", .string(D.description)), ("output", .string(D.output)),
            ("templates", .string(D.templates)), ("state", .string(D.state)), ("pageSize", number(D.pageSize)),
            ("sort", .string(D.sort.description)), ("language", .string(D.language)),
            ("images.thumbnail", number(D.thumbnail)), ("images.preview", number(D.preview)),
            ("images.widths", .array(D.widths.map(number))), ("images.quality", number(D.quality)),
            ("images.background", .string(D.background)), ("images.maxPixels", number(D.maxPixels)),
            ("images.publishOriginals", .bool(D.publishOriginals == .stripped)),
            ("images.showLocation", .bool(D.showLocation)), ("images.linearLight", .bool(D.linearLight)),
            ("images.exifFields", .array(D.exifFields.map { .string($0.rawValue) })), ("images.webp", .bool(D.webp)),
            ("images.avif", .bool(D.avif)),
            ("images.sharpen", .number(D.sharpen)), ("images.gridSteps", .bool(D.gridSteps)),
            ("viewer.slideshowSeconds", .number(D.slideshowSeconds)), ("map.tileURL", .string(D.mapTileURL)),
            ("network.timeoutSeconds", number(D.timeoutSeconds)),
            ("network.maxDownloadBytes", number(D.maxDownloadBytes)),
            ("network.connectionsPerHost", number(D.connectionsPerHost)), ("network.retries", number(D.retries)),
            ("deploy.plan", .string(D.hostPlan.rawValue))
        ]
        for (path, value) in expected {
            #expect(Self.property(path, in: schema)?["default"] == value, "\(path)")
        }
        let sources: [(String, String, JSONValue)] = [
            ("flickrSource", "method", .string(D.flickrMethod)), ("flickrSource", "perPage", number(D.flickrPerPage)),
            ("flickrSource", "limit", number(D.remoteLimit)), ("fiveHundredPxSource", "limit", number(D.remoteLimit)),
            ("fiveHundredPxSource", "feature", .string(D.fiveHundredPxFeature)),
            ("fiveHundredPxSource", "perPage", number(D.fiveHundredPxPerPage)),
            ("fiveHundredPxSource", "imageSizes", .array(D.fiveHundredPxImageSizes.map(number))),
            ("parseSource", "className", .string(D.parseClassName)), ("parseSource", "order", .string(D.parseOrder)),
            ("parseSource", "perPage", number(D.parsePerPage)),
            ("parseSource", "endpoint", .string(ParseSource.defaultEndpoint.absoluteString)),
            ("parseSource", "columns", .object(ParseSource.defaultColumns.mapValues { .string($0) })),
            ("manifestSource", "allowInsecureHTTP", .bool(D.allowInsecureHTTP))
        ]
        for (source, key, value) in sources {
            #expect(schema["$defs"]?[source]?["properties"]?[key]?["default"] == value, "\(source).\(key)")
        }
    }

    /// Both ends of each integer range in the schema load, and one past either end is refused with its key.
    @Test func integerRangesAreTheLoaders() throws {
        let schema = try Self.schema()
        let paths = [
            "pageSize", "images.thumbnail", "images.preview", "images.quality", "images.maxPixels",
            "images.maxPixelsInFlight", "network.timeoutSeconds", "network.maxDownloadBytes",
            "network.connectionsPerHost", "network.retries"
        ]
        for path in paths {
            let property = try #require(Self.property(path, in: schema), "\(path)")
            guard case .number(let low)? = property["minimum"], case .number(let high)? = property["maximum"] else {
                Issue.record("\(path) has no range in the schema")
                continue
            }
            for (value, accepted) in [
                (Int64(low), true), (Int64(high), true), (Int64(low) - 1, false), (Int64(high) + 1, false)
            ] {
                let parts = path.split(separator: ".")
                let setting =
                    parts.count == 1 ? "\"\(path)\": \(value)" : "\"\(parts[0])\": {\"\(parts[1])\": \(value)}"
                let json = #"{"source": {"type": "folder", "path": "photos"}, "# + setting + "}"
                do {
                    _ = try SiteConfig.parse(Data(json.utf8), file: Self.file, environment: [:])
                    #expect(accepted, "\(path) = \(value) should be refused")
                } catch let error as ConfigError {
                    #expect(!accepted && error.key == path, "\(path) = \(value): \(error)")
                }
            }
        }
    }

    /// The sample, `init`'s config and source examples, the manual's examples and configs that
    /// must be refused, through Python's `jsonschema` (in the test venv; CI fails without it).
    @Test(
        .enabled(
            if: jsonschemaInstalled || ProcessInfo.processInfo.environment["CI"] != nil,
            "needs Python's jsonschema (pip); make test installs it"))
    func examplesValidateWithJSONSchema() throws {
        let script = Fixtures.repository.appendingPathComponent("Tests/Schema/check_config_schema.py")
        let result = BrowserTools.run(["python3", script.path, Fixtures.repository.path])
        #expect(result.status == 0, "\(String(decoding: result.output, as: UTF8.self))\(result.errors)")
    }

    static let jsonschemaInstalled = BrowserTools.run(["python3", "-c", "import jsonschema"]).status == 0
}
