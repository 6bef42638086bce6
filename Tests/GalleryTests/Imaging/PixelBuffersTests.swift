import Foundation
import GalleryImaging
import Testing

/// Big pixel buffers (`PixelBuffers`): huge pages asked for, zeroed only on request.
@Suite struct PixelBuffersTests {
    static let big = PixelBuffers.minimumBytes * 3 + 12345

    @Test func buffersHaveTheSizeAskedAndZeroedMeansZeroed() {
        for count in [10, PixelBuffers.minimumBytes - 1, Self.big] {
            let buffer = PixelBuffers.take(count, zeroed: true)
            #expect(buffer.count == count && buffer.allSatisfy { $0 == 0 }, "\(count)")
            #expect(PixelBuffers.take(count).count == count)
        }
    }

    /// A big buffer lies in memory advised for huge pages: `/proc/self/smaps` shows the `hg` flag on
    /// its mapping. Skipped where the kernel has transparent huge pages off.
    @Test(
        .enabled(
            if: (try? String(contentsOfFile: "/sys/kernel/mm/transparent_hugepage/enabled", encoding: .utf8))
                .map { !$0.contains("[never]") } ?? false, "transparent huge pages are off or absent"))
    func bigBuffersAskForHugePages() throws {
        var buffer = PixelBuffers.take(8 << 20)
        let address = buffer.withUnsafeMutableBufferPointer { pointer -> Int in
            pointer.update(repeating: 1)
            // The first whole 2 MB page: madvise splits the mapping there, the part before it stays small pages.
            return (Int(bitPattern: pointer.baseAddress) + (2 << 20) - 1) & ~((2 << 20) - 1)
        }
        // Read to the end: /proc files report no size, and a sized read stops at the first page.
        let smaps = String(
            decoding: try #require(FileHandle(forReadingAtPath: "/proc/self/smaps")).readDataToEndOfFile(),
            as: UTF8.self)
        var inside = false
        var flags = ""
        for line in smaps.split(separator: "\n") {
            if let range = line.split(separator: " ").first, range.contains("-"), line.first?.isHexDigit == true {
                let bounds = range.split(separator: "-").compactMap { Int($0, radix: 16) }
                inside = bounds.count == 2 && bounds[0] <= address && address < bounds[1]
            } else if inside, line.hasPrefix("VmFlags:") {
                flags = String(line)
            }
        }
        #expect(flags.split(separator: " ").contains("hg"), "\(flags)")
        #expect(buffer.allSatisfy { $0 == 1 })
    }
}
