#if !GALLERY_FUZZING
    import Foundation
    import GalleryFuzzing

    /// Without libFuzzer, `galleryfuzz HARNESS FILE…` replays inputs (a crash that a campaign kept)
    /// through a harness in an ordinary debug build, where a debugger and full stack traces work;
    /// `galleryfuzz --list` lists the harnesses.
    ///
    /// Scripts/fuzz.sh builds with `-DGALLERY_FUZZING`, which leaves this out so that libFuzzer's
    /// own `main` is the program's.
    @main
    struct Replay {
        static func main() throws {
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "--list" {
                for harness in FuzzHarness.all { print("\(harness.name)\t\(harness.summary)") }
                return
            }
            guard let name = arguments.first, let harness = FuzzHarness.named(name), arguments.count > 1 else {
                let names = FuzzHarness.all.map(\.name).joined(separator: ", ")
                FileHandle.standardError.write(
                    Data("usage: galleryfuzz HARNESS FILE...  (harnesses: \(names)); galleryfuzz --list\n".utf8))
                exit(64)
            }
            var broken = 0
            for path in arguments.dropFirst() {
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                if let problem = harness.run(data) {
                    print("\(path): \(problem)")
                    broken += 1
                } else {
                    print("\(path): ok")
                }
            }
            exit(broken == 0 ? 0 : 1)
        }
    }
#endif
