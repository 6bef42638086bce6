import Foundation
import Testing

/// The arrows of the architecture (docs/ARCHITECTURE.md, "Stage targets"): which stage target may import which.
///
/// The compiler already refuses an import of a later stage (it is not built yet, or it would be a
/// cycle). What it lets through is an import of a stage that is only an indirect dependency,
/// because SwiftPM puts every built module on the search path; these tests refuse that too, and
/// keep Package.swift's declared dependencies equal to the arrows written here.
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
        "GalleryRender": ["GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryImaging"],
        "GalleryOutput": [
            "GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryStore", "GalleryFetch", "GalleryRender"
        ],
        "GalleryPipeline": [
            "GalleryModel", "GalleryConfig", "GalleryKeys", "GalleryMetadata", "GalleryStore", "GalleryFetch",
            "GalleryImaging", "GalleryProviders", "GalleryRender", "GalleryOutput", "GalleryVault"
        ],
        "GalleryServe": ["GalleryModel", "GalleryConfig", "GalleryPipeline"],
        "galleryssg": ["GalleryPipeline", "GalleryServe"]
    ]

    static let sources = Fixtures.repository.appendingPathComponent("Sources")

    /// The modules each Swift file of `target` imports.
    static func imports(of target: String) throws -> [(file: String, module: String)] {
        let folder = sources.appendingPathComponent(target)
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
            .filter { $0.hasSuffix(".swift") }
            .flatMap { file in
                try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                    .split(separator: "\n")
                    .compactMap { line -> (String, String)? in
                        // `import X`, `@preconcurrency import X`, `import struct X.Y`
                        let words = line.split(separator: " ").filter {
                            !["struct", "enum", "class", "func"].contains($0)
                        }
                        guard let at = words.firstIndex(of: "import"), at + 1 < words.count,
                            words[..<at].allSatisfy({ $0.hasPrefix("@") })
                        else { return nil }
                        return (file, String(words[at + 1].split(separator: ".")[0]))
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
        let manifest = try String(
            contentsOf: Fixtures.repository.appendingPathComponent("Package.swift"), encoding: .utf8)
        var declared: [String: Set<String>] = [:]
        for body in manifest.split(separator: /\.(?:target|executableTarget|testTarget|systemLibrary)\(/).dropFirst() {
            guard let name = body.firstMatch(of: /name: "(\w+)"/)?.1, Self.arrows[String(name)] != nil else { continue }
            let dependencies = body.components(separatedBy: "dependencies:").dropFirst().joined()
            declared[String(name)] = Set(dependencies.matches(of: /"(Gallery\w+)"/).map { String($0.1) })
        }
        #expect(declared == Self.arrows)
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
        #expect(Set(importers.map(\.file)) == ["VaultCrypto.swift"], "\(importers)")
    }
}
