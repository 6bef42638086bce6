import Foundation
import Testing

/// The arrows of the architecture (docs/ARCHITECTURE.md, "Stage targets"): which stage target may import which.
///
/// The compiler already refuses an import of a later stage (it is not built yet, or it would be a
/// cycle). What it lets through is an import of a stage that is only an indirect dependency,
/// because SwiftPM puts every built module on the search path; these tests refuse that too, keep
/// Package.swift's declared dependencies equal to the arrows written here, and keep every target's
/// declared dependencies (other packages' products and C libraries included) equal to its imports.
/// Files are read in a target's sub-folders too.
@Suite struct ArchitectureTests {
    static let arrows: [String: Set<String>] = [
        "GalleryModel": [],
        "GalleryVault": [],
        "GalleryConfig": ["GalleryModel"],
        "GalleryKeys": ["GalleryModel"],
        "GalleryMetadata": ["GalleryModel"],
        "GalleryStore": ["GalleryModel", "GalleryConfig", "GalleryKeys"],
        "GalleryFetch": ["GalleryModel", "GalleryConfig", "GalleryKeys"],
        "GalleryImaging": ["GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryMetadata"],
        "GalleryProviders": ["GalleryModel", "GalleryConfig", "GalleryFetch", "GalleryMetadata"],
        "GalleryRender": ["GalleryModel", "GalleryConfig", "GalleryKeys"],
        "GalleryOutput": ["GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryStore", "GalleryFetch"],
        "GalleryPipeline": [
            "GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryMetadata", "GalleryStore", "GalleryFetch",
            "GalleryImaging", "GalleryProviders", "GalleryRender", "GalleryOutput", "GalleryVault"
        ],
        "GalleryServe": ["GalleryModel", "GalleryConfig", "GalleryPipeline"],
        "galleryssg": ["GalleryPipeline", "GalleryServe"]
    ]

    static let sources = Fixtures.repository.appendingPathComponent("Sources")

    /// Modules that come with the toolchain, which Package.swift does not declare.
    static let systemModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Glibc", "Dispatch",
        "Synchronization", "Testing", "_Builtin_intrinsics"
    ]

    /// Declared but not imported, on purpose: the tests list the CLI so that `swift test` builds the
    /// binary the kill -9 test runs, and with it CMalloc, as the CLI has it.
    static let declaredForTheBuild: [String: Set<String>] = ["GalleryTests": ["galleryssg", "CMalloc"]]

    /// Package.swift's targets as it declares them.
    static func manifest() throws -> PackageManifest {
        try PackageManifest(
            String(contentsOf: Fixtures.repository.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// Every Swift file below `folder`, sub-folders included, as sorted paths relative to it.
    static func swiftFiles(in folder: URL) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        return walker.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }.sorted()
    }

    /// The modules each Swift file of `target` (a folder of Sources/, or any folder below the
    /// package root) imports; `file` is its path inside that folder.
    static func imports(of target: String, in root: URL = sources) throws -> [(file: String, module: String)] {
        let folder = root.appendingPathComponent(target)
        return try swiftFiles(in: folder).flatMap { file in
            try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .split(separator: "\n")
                .compactMap { line -> (String, String)? in
                    // `import X`, `@preconcurrency import X`, `import struct X.Y`, then at most a comment
                    let words = line.split(separator: " ").filter {
                        !["struct", "enum", "class", "func"].contains($0)
                    }
                    guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                        words[..<at].allSatisfy({ $0.hasPrefix("@") }),
                        at + 2 == words.count || words[at + 2].hasPrefix("//"),
                        let module = words[at + 1].split(separator: ".").first,
                        module.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber })
                    else { return nil }
                    return (file, String(module))
                }
        }
    }

    @Test func eachStageImportsOnlyTheStagesItMay() throws {
        for (target, allowed) in Self.arrows {
            for (file, module) in try Self.imports(of: target) where module.hasPrefix("Gallery") {
                #expect(allowed.contains(module), "\(target)/\(file) imports \(module)")
            }
        }
    }

    @Test func everyStageFolderIsATargetWithItsArrows() throws {
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path)
            .filter { $0.hasPrefix("Gallery") || $0 == "galleryssg" }
        #expect(Set(folders) == Set(Self.arrows.keys))
        // Package.swift's dependency lists name the same stages as the arrows.
        let declared = try Self.manifest().targets.filter { Self.arrows[$0.key] != nil }
            .mapValues { $0.targets.filter { $0.hasPrefix("Gallery") } }
        #expect(declared == Self.arrows)
    }

    /// docs/ARCHITECTURE.md draws exactly these arrows, each target above every target it imports.
    @Test func theArchitectureDocumentDrawsTheseArrows() throws {
        let document = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("docs/ARCHITECTURE.md"), encoding: .utf8)
        // `  GalleryRender     ─► Keys, Config, Model      pages`
        let drawn = document.split(separator: "\n").compactMap { line -> (target: String, imports: Set<String>)? in
            guard let match = line.wholeMatch(of: /\s+(Gallery\w+|galleryssg)\s+─► (.+?)(?:\s{2,}.*)?/) else {
                return nil
            }
            let names = match.2 == "(none)" ? [] : match.2.split(separator: ", ").map { "Gallery" + $0 }
            return (String(match.1), Set(names))
        }
        #expect(Dictionary(drawn, uniquingKeysWith: { first, _ in first }) == Self.arrows)
        #expect(drawn.count == Self.arrows.count, "a target drawn twice: \(drawn.map(\.target))")
        for (index, line) in drawn.enumerated() {
            let below = Set(drawn[(index + 1)...].map(\.target))
            #expect(
                line.imports.isSubset(of: below), "\(line.target) is drawn below \(line.imports.subtracting(below))")
        }
    }

    /// Every target declares exactly what its files import, and nothing more: an external product
    /// no file imports is one more package to fetch and build for nothing (swift-crypto was declared
    /// on two stages that never used it), and one imported without being declared builds only
    /// because SwiftPM puts every module on the search path. C libraries are held the same way, and
    /// each by one file (`eachCLibraryIsImportedByOneFile`).
    @Test func everyTargetDeclaresExactlyWhatItImports() throws {
        let targets = try Self.manifest().targets.values
        #expect(Set(targets.map(\.name)).isSuperset(of: Self.arrows.keys), "\(targets.map(\.name))")
        for target in targets where target.kind != "systemLibrary" {
            let imported = Set(try Self.imports(of: target.path, in: Fixtures.repository).map(\.module))
                .subtracting(Self.systemModules)
            let declared = target.products.union(target.targets)
                .subtracting(Self.declaredForTheBuild[target.name] ?? [])
            #expect(
                imported == declared,
                """
                \(target.name): imported but not declared \(imported.subtracting(declared).sorted()), \
                declared but not imported \(declared.subtracting(imported).sorted())
                """)
        }
    }

    /// The files the tests above read include those in a target's sub-folders.
    @Test func importsAreReadFromSubFoldersToo() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("arrows-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("GalleryThing/Codecs/Raw")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("@preconcurrency import CLibRaw\nimport Foundation\n".utf8)
            .write(to: folder.appendingPathComponent("RAWCodec.swift"))
        try Data("import GalleryModel  // Photo\n".utf8).write(to: root.appendingPathComponent("GalleryThing/A.swift"))
        let found = try Self.imports(of: "GalleryThing", in: root)
        #expect(found.map(\.file) == ["A.swift", "Codecs/Raw/RAWCodec.swift", "Codecs/Raw/RAWCodec.swift"])
        #expect(found.map(\.module) == ["GalleryModel", "CLibRaw", "Foundation"])
    }

    /// Each C library is imported by exactly one Swift file, which turns it into Swift values.
    @Test func eachCLibraryIsImportedByOneFile() throws {
        var importers: [String: [String]] = [:]
        for target in Self.arrows.keys {
            for (file, module) in try Self.imports(of: target) where module.hasPrefix("C") && module != "Crypto" {
                importers[module, default: []].append("\(target)/\(file)")
            }
        }
        let cModules = try FileManager.default.contentsOfDirectory(atPath: Self.sources.path).filter {
            $0.hasPrefix("C")
        }
        for module in cModules {
            #expect(importers[module]?.count == 1, "\(module) imported by \(importers[module] ?? [])")
        }
    }

    /// The vault's cryptography is called from one file, as a C library is: the format's other
    /// files work on bytes, and the known-answer tests check exactly the calls that file makes.
    @Test func swiftCryptoIsImportedByOneVaultFile() throws {
        let importers = try Self.imports(of: "GalleryVault").filter { ["Crypto", "_CryptoExtras"].contains($0.module) }
        let files = Set(importers.compactMap { $0.file.split(separator: "/").last.map(String.init) })
        #expect(files == ["VaultCrypto.swift"], "\(importers)")
    }
}
