import Foundation

/// One parser of untrusted bytes, driven by libFuzzer (`Fuzz/Driver`) and replayed by the tests.
///
/// A harness feeds arbitrary bytes to a parser's real entry point. Crashes, leaks and hangs are
/// what the sanitizers and libFuzzer catch; `run` also returns a broken property (a stripped JPEG
/// that still holds a position, a manifest read differently in small chunks), which the driver
/// turns into a crash so that libFuzzer keeps the input.
package struct FuzzHarness: Sendable {
    /// The harness's name: its corpus folder `Fuzz/Corpus/<name>` and `FUZZ_HARNESS=<name>`.
    package let name: String
    /// The parser it drives, for `--list`.
    package let summary: String
    /// Feeds one input to the parser; a non-nil result names a property the output broke.
    package let run: @Sendable (Data) -> String?

    /// Every harness, in the order a campaign runs them (riskiest first).
    package static let all: [FuzzHarness] = [
        jpegSegments, gpsStripper, manifest, iptc, pngChunks, imageHeaders, jpegRows, raw, frontMatter, s3XML, mappers,
        htmlText,
        config
    ]

    /// The harness called `name`, if any.
    package static func named(_ name: String) -> FuzzHarness? {
        all.first { $0.name == name }
    }
}
