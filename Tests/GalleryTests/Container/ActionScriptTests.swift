import Foundation
import Testing

/// The GitHub Action's step inside the image (`Scripts/container/action.sh`, installed as
/// `galleryssg-action`), run the way action.yml's `docker run` runs it: in the repository's folder,
/// with the inputs as `INPUT_*` variables, `GITHUB_OUTPUT` naming the outputs file, and the built
/// `galleryssg` on PATH.
@Suite struct ActionScriptTests {
    struct Run {
        var status: Int32
        var errors: String
        var outputs: [String: String]
    }

    /// A repository holding a site: two sample photos in a manifest, one of them in a protected album.
    static func repository() throws -> URL {
        let folder = try Fixtures.temporaryFolder()
        let photos = folder.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let samples = Fixtures.repository.appendingPathComponent("Samples/photos")
        for name in ["Kite.jpg", "Path.jpg"] {
            try FileManager.default.copyItem(
                at: samples.appendingPathComponent(name), to: photos.appendingPathComponent(name))
        }
        try #"{"title": "Action test", "output": "public", "source": {"type": "folder", "path": "photos"}}"#
            .write(to: folder.appendingPathComponent("site-config.json"), atomically: true, encoding: .utf8)
        return folder
    }

    /// Runs the script in `folder` with `inputs` (names without `INPUT_`) and only PATH, HOME and
    /// GITHUB_OUTPUT set besides, as the container has.
    static func run(in folder: URL, _ inputs: [String: String]) throws -> Run {
        let script = Fixtures.repository.appendingPathComponent("Scripts/container/action.sh")
        let binFolder = try IncrementalFixtures.cli().deletingLastPathComponent().path
        let outputs = folder.appendingPathComponent("../github-output-\(UUID().uuidString)").standardizedFileURL
        _ = FileManager.default.createFile(atPath: outputs.path, contents: nil)
        var environment = [
            "PATH": "\(binFolder):/usr/bin:/bin", "HOME": NSTemporaryDirectory(), "LANG": "C.UTF-8",
            "GITHUB_OUTPUT": outputs.path
        ]
        for (name, value) in inputs { environment["INPUT_\(name)"] = value }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = [script.path]
        process.environment = environment
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var written: [String: String] = [:]
        for line in try String(contentsOf: outputs, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { written[String(parts[0])] = String(parts[1]) }
        }
        return Run(status: process.terminationStatus, errors: errorText, outputs: written)
    }

    /// Every regular file below `folder`, relative to it.
    static func files(_ folder: URL) -> Set<String> {
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        var found: Set<String> = []
        while let path = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent(path).path, isDirectory: &isFolder),
                !isFolder.boolValue
            {
                found.insert(path)
            }
        }
        return found
    }

    @Test func aBuildLeavesTheSiteToUploadWithoutBookkeepingAndSaysWhere() throws {
        let repository = try Self.repository()
        let run = try Self.run(in: repository, ["COMMAND": "build", "ARGS": "--quiet  --jobs 1"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.outputs["site"] == "./_site")
        #expect(run.outputs["output"] == "public")
        #expect(run.outputs["photos"] == "2")

        let output = Self.files(repository.appendingPathComponent("public"))
        let site = Self.files(repository.appendingPathComponent("_site"))
        #expect(output.contains(".galleryssg-site"), "the output keeps its marker for the next build")
        #expect(!site.contains(where: { $0.hasPrefix(".galleryssg") }))
        #expect(site == output.subtracting([".galleryssg-site"]))
        #expect(site.contains("index.html"))
        // Hard links: the upload folder costs no second copy of the images.
        let image = try #require(site.first(where: { $0.hasSuffix(".jpg") }))
        let inOutput = try FileManager.default.attributesOfItem(
            atPath: repository.appendingPathComponent("public/\(image)").path)
        let inSite = try FileManager.default.attributesOfItem(
            atPath: repository.appendingPathComponent("_site/\(image)").path)
        #expect(inOutput[.systemFileNumber] as? Int == inSite[.systemFileNumber] as? Int)
    }

    @Test func keysAndAMadeSecretAreGoneAfterTheRunSoNoCacheHoldsThem() throws {
        let repository = try Self.repository()
        let state = repository.appendingPathComponent(".galleryssg")
        let run = try Self.run(in: repository, ["KEYS": "{}", "ARGS": "--quiet"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(FileManager.default.fileExists(atPath: state.appendingPathComponent("state.sqlite").path))
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("album-keys.json").path))
        #expect(!FileManager.default.fileExists(atPath: state.appendingPathComponent("site-secret").path))

        // Keys the repository holds itself are neither overwritten nor removed. (A new checkout has
        // no _site; this one keeps the first run's, which the Action would refuse to write into.)
        try FileManager.default.removeItem(at: repository.appendingPathComponent("_site"))
        let own = state.appendingPathComponent("album-keys.json")
        try "{}\n".write(to: own, atomically: true, encoding: .utf8)
        let again = try Self.run(in: repository, ["KEYS": #"{"x": 1}"#, "ARGS": "--quiet"])
        #expect(again.status == 0, "\(again.errors)")
        #expect(again.errors.contains("the keys input is ignored"))
        #expect(try String(contentsOf: own, encoding: .utf8) == "{}\n")
    }

    @Test func aSubfolderSiteAndItsOwnConfigName() throws {
        let repository = try Self.repository()
        let gallery = repository.appendingPathComponent("gallery")
        try FileManager.default.createDirectory(at: gallery, withIntermediateDirectories: true)
        for name in ["photos", "site-config.json"] {
            try FileManager.default.moveItem(
                at: repository.appendingPathComponent(name), to: gallery.appendingPathComponent(name))
        }
        try FileManager.default.moveItem(
            at: gallery.appendingPathComponent("site-config.json"), to: gallery.appendingPathComponent("gallery.json"))
        let run = try Self.run(
            in: repository, ["DIRECTORY": "gallery", "CONFIG": "gallery.json", "SITE": "upload", "ARGS": "--quiet"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.outputs["site"] == "gallery/upload")
        #expect(Self.files(gallery.appendingPathComponent("upload")).contains("index.html"))
    }

    @Test func whatTheActionCannotDoIsRefusedWithTheInputToChange() throws {
        let repository = try Self.repository()
        let unknown = try Self.run(in: repository, ["COMMAND": "clean"])
        #expect(unknown.status == 2)
        #expect(unknown.errors.contains("::error::galleryssg action: command 'clean' is not one the Action runs"))

        let noConfig = try Self.run(in: repository, ["CONFIG": "gallery.json"])
        #expect(noConfig.status == 2)
        #expect(noConfig.errors.contains("no 'gallery.json' in '.'"))

        // A folder that is not the Action's own is never written into.
        let other = repository.appendingPathComponent("_site")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try "mine".write(to: other.appendingPathComponent("notes.txt"), atomically: true, encoding: .utf8)
        let occupied = try Self.run(in: repository, ["ARGS": "--quiet"])
        #expect(occupied.status == 2)
        #expect(occupied.errors.contains("'_site' is not empty"))
        #expect(Self.files(other) == ["notes.txt"])
    }

    @Test func aFailedBuildFailsTheStepWithGalleryssgsStatus() throws {
        let repository = try Self.repository()
        try #"{"title": "x", "source": {"type": "folder", "path": "photos"}, "pageSize": "many"}"#
            .write(to: repository.appendingPathComponent("site-config.json"), atomically: true, encoding: .utf8)
        let run = try Self.run(in: repository, [:])
        #expect(run.status == 2, "bad config is galleryssg's status 2")
        #expect(run.errors.contains("pageSize"))
        #expect(run.outputs.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: repository.appendingPathComponent("_site").path))
    }
}
