import Foundation
import GalleryImaging
import GalleryModel
import Testing

/// The HDR video tests' chart: the 24 ColorChecker patches as sRGB (`Tests/HDR/chart.py` makes
/// them and measures them), encoded by ffmpeg as a correct HLG or PQ signal, and the CIEDE2000
/// difference between the patches and a frame of what galleryssg made of it.
enum HDRChart {
    static let width = 480
    static let height = 320
    static let script = Fixtures.repository.appendingPathComponent("Tests/HDR/chart.py")

    /// The venv's Python (Scripts/setup.sh test puts it first on PATH) when it has numpy and
    /// colour-science; the tests that measure need it, and CI fails without it.
    static let python: MediaTool? = {
        guard let python = MediaTool.find("python3") else { return nil }
        let check = BrowserTools.run([python.path, "-c", "import colour, numpy"])
        return check.status == 0 ? python : nil
    }()

    static var canMeasure: Bool { python != nil || ProcessInfo.processInfo.environment["CI"] != nil }
    static let needs = "needs Python's numpy and colour-science (pip); Scripts/setup.sh test installs them"

    /// What `chart.py measure` found: the mean and largest CIEDE2000 of the 22 mid-tone patches.
    struct Measure: Decodable, CustomStringConvertible {
        var meanMidTones: Double
        var maxMidTones: Double
        var description: String {
            "mean ΔE2000 \(String(format: "%.2f", meanMidTones)), max \(String(format: "%.2f", maxMidTones))"
        }
    }

    /// Runs ffmpeg; fails the test, with its reason, on a non-zero exit.
    static func ffmpeg(_ arguments: [String]) async throws {
        let output = try await VideoProbeTests.tool("ffmpeg").run(
            ["-v", "error", "-nostdin", "-y"] + arguments, timeout: 120)
        try #require(output.status == 0, "ffmpeg \(arguments.joined(separator: " ")): \(output.reason)")
    }

    /// A 1 s clip of the chart, 25 frames a second, as `transfer` with BT.2020 primaries and
    /// matrix, converted from sRGB by zscale in linear light with diffuse white at 203 nits
    /// (BT.2408's reference white; for HLG on its 1000-nit reference display): the signal a phone
    /// records of the chart, whose right SDR rendering is the patches themselves. 10-bit HEVC
    /// (x265) as phones record it, or with `eightBit` 8-bit H.264 (which a plain clip would have
    /// copied as it is).
    static func clip(_ transfer: HDRTransfer, in folder: URL, eightBit: Bool = false) async throws -> URL {
        try await clip(transfer: transfer.rawValue, name: transfer.name, in: folder, eightBit: eightBit)
    }

    /// The chart as a clip of any transfer ffmpeg names (`bt2020-10`: wide-gamut SDR), named
    /// `chart-NAME.mov` (`.mp4` for 8-bit H.264).
    static func clip(transfer: String, name: String, in folder: URL, eightBit: Bool = false) async throws -> URL {
        let chart = folder.appendingPathComponent("chart.ppm")
        if !FileManager.default.fileExists(atPath: chart.path) {
            let python = try #require(MediaTool.find("python3"), "python3 is needed to make the chart")
            let made = try await python.run([script.path, "make", chart.path], timeout: 60)
            try #require(made.status == 0, "chart.py make: \(made.reason)")
        }
        let clip = folder.appendingPathComponent("chart-\(name)\(eightBit ? "-8bit.mp4" : ".mov")")
        let signal =
            "zscale=tin=iec61966-2-1:pin=bt709:min=gbr:rin=full:t=\(transfer):p=bt2020:m=bt2020nc:r=tv:npl=203,"
            + "format=\(eightBit ? "yuv420p" : "yuv420p10le")"
        let codec =
            eightBit
            ? ["-c:v", "libx264", "-preset", "fast", "-crf", "12", "-profile:v", "high"]
            : ["-c:v", "libx265", "-x265-params", "log-level=error", "-crf", "12", "-tag:v", "hvc1"]
        try await ffmpeg(
            ["-loop", "1", "-framerate", "25", "-i", chart.path, "-t", "1", "-vf", signal] + codec + [
                "-color_primaries", "bt2020", "-color_trc", transfer, "-colorspace", "bt2020nc",
                clip.path
            ])
        return clip
    }

    /// Reads a decoded image as sRGB as it is (a PNG or JPEG poster, or a frame as a player that
    /// ignores colour tags shows it), scaled to the chart's size.
    static let asImage = "scale=480:320:flags=area,format=rgb24"

    /// The first frame of `file` (a clip or an image) at the chart's size as raw sRGB bytes.
    /// - Parameter filters: what turns the decoded frame into sRGB; the default scales it and reads
    ///   it as its tags say (zscale from BT.709 to sRGB), as a colour-managed player shows it.
    static func frame(of file: URL, filters: String? = nil, in folder: URL) async throws -> URL {
        let raw = folder.appendingPathComponent(UUID().uuidString + ".rgb")
        let read =
            filters
            ?? "scale=\(width):\(height):flags=area,zscale=t=iec61966-2-1:p=bt709:r=full,format=gbrp,format=rgb24"
        try await ffmpeg(["-i", "file:" + file.path, "-frames:v", "1", "-vf", read, "-f", "rawvideo", raw.path])
        return raw
    }

    /// The chart's CIEDE2000 in a raw frame (`frame(of:)`).
    static func measure(_ raw: URL) async throws -> Measure {
        let python = try #require(python, "\(needs)")
        let output = try await python.run([script.path, "measure", raw.path], timeout: 60)
        try #require(output.status == 0, "chart.py measure: \(output.reason)")
        return try JSONDecoder().decode(Measure.self, from: output.stdout)
    }

    /// What ffprobe says of the first video stream: codec and colour tags, `key=value|…`.
    static func tags(_ file: URL) async throws -> [String: String] {
        let output = try await VideoProbeTests.tool("ffprobe").run(
            [
                "-v", "error", "-select_streams", "v:0", "-show_entries",
                "stream=codec_name,pix_fmt,color_primaries,color_transfer,color_space", "-of", "compact=p=0",
                "file:" + file.path
            ], timeout: 30)
        var found: [String: String] = [:]
        for pair in String(decoding: output.stdout, as: UTF8.self).split(whereSeparator: { $0 == "|" || $0.isNewline })
        {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            if parts.count == 2 { found[parts[0]] = parts[1] }
        }
        return found
    }
}
