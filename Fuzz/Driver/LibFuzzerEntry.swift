import Foundation
import GalleryFuzzing

// libFuzzer's two entry points. Under `-sanitize=fuzzer` (Scripts/fuzz.sh) libFuzzer supplies
// `main` and calls these; in a normal build they are compiled but not called, so that the
// harnesses keep building with the rest of the package.

/// The harness that `FUZZ_HARNESS` names, chosen once before the first input.
nonisolated(unsafe) private var selected: FuzzHarness?

/// Picks the harness from `FUZZ_HARNESS`; libFuzzer calls it once, before any input.
///
/// An environment variable rather than an argument, because libFuzzer reads every argument as
/// one of its own flags or a corpus folder.
@_cdecl("LLVMFuzzerInitialize")
public func fuzzerInitialize(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
) -> CInt {
    let name = ProcessInfo.processInfo.environment["FUZZ_HARNESS"] ?? ""
    guard let harness = FuzzHarness.named(name) else {
        let names = FuzzHarness.all.map(\.name).joined(separator: ", ")
        FileHandle.standardError.write(Data("galleryfuzz: set FUZZ_HARNESS to one of: \(names)\n".utf8))
        exit(2)
    }
    selected = harness
    return 0
}

/// Runs one input; a broken property traps, so that libFuzzer reports it and keeps the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let harness = selected else { return 0 }
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    if let broken = harness.run(data) {
        fatalError("\(harness.name): \(broken)")
    }
    return 0
}
