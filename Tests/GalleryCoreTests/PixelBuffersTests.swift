import Foundation
import Testing
@testable import GalleryCore

/// The pool of big pixel buffers that photos hand back for the next photo (`PixelBuffers`).
@Suite struct PixelBuffersTests {
    static let big = PixelBuffers.minimumBytes * 3

    @Test func aHandedBackBufferIsTakenAgainAtTheSizeAsked() {
        let pool = PixelBuffers()
        let first = pool.take(Self.big)
        let address = first.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) }
        pool.recycle(consume first)   // handed over: the pool holds the only reference
        let smaller = pool.take(Self.big - 12345)
        #expect(smaller.count == Self.big - 12345)
        #expect(smaller.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } == address)
        #expect(pool.reused == 1 && pool.count == 0)
        // Nothing large enough: a new buffer.
        pool.recycle(consume smaller)
        #expect(pool.take(Self.big * 2).count == Self.big * 2 && pool.reused == 1 && pool.count == 1)
    }

    @Test func zeroedMeansZeroedEvenWhenReused() {
        let pool = PixelBuffers()
        pool.recycle([UInt8](repeating: 0xAB, count: Self.big))
        let buffer = pool.take(Self.big, zeroed: true)
        #expect(pool.reused == 1 && buffer.allSatisfy { $0 == 0 })
    }

    /// Small buffers go back to malloc; the pool keeps its limit, dropping the smallest buffers.
    @Test func thePoolIsBounded() {
        let pool = PixelBuffers()
        pool.reserve(jobs: 1)
        pool.recycle([UInt8](repeating: 1, count: 1000))
        #expect(pool.count == 0)
        for index in 0..<20 { pool.recycle([UInt8](repeating: 1, count: Self.big + index * 4096)) }
        #expect(pool.count == 8)
        // The largest eight stayed: the smallest of them fits a request for the thirteenth size.
        _ = pool.take(Self.big + 12 * 4096)
        #expect(pool.reused == 1 && pool.count == 7)
        pool.drain()
        #expect(pool.count == 0)
    }

    /// A buffer handed back while a bitmap still holds it is copied on the next write, so the
    /// bitmap's pixels never change.
    @Test func aBufferStillInUseIsNeverOverwritten() {
        let pool = PixelBuffers()
        let bitmap = Bitmap(width: 1024, height: 1024, pixels: [UInt8](repeating: 7, count: 1024 * 1024 * 3))
        pool.recycle([bitmap, bitmap])
        #expect(pool.count == 1, "one buffer, handed back once")
        var taken = pool.take(bitmap.pixels.count)
        taken.withUnsafeMutableBufferPointer { $0.update(repeating: 9) }
        #expect(bitmap.pixels.allSatisfy { $0 == 7 } && taken.allSatisfy { $0 == 9 })
    }

    /// Photos rendered one after another reuse the buffers of the photo before, and give the same
    /// bytes as a render from an empty pool.
    @Test func aRenderReusesBuffersAndMakesTheSameBytes() throws {
        let width = 1800, height = 1200   // a 6.5 MB decode: big enough for the pool
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for index in pixels.indices { pixels[index] = UInt8(truncatingIfNeeded: (index / 3 % width) ^ (index / 3 / width) &* 7 &+ index % 3 &* 50) }
        let data = try JPEGCodec.encode(Bitmap(width: width, height: height, pixels: pixels), quality: 90)
        var settings = ImageSettings.defaults
        settings.sharpen = 0.4
        let processor = ImageProcessor(settings: settings)
        let pool = PixelBuffers.shared
        pool.drain()
        let first = try processor.process(data, folder: "photos/one")
        #expect(pool.count > 0, "the render handed its buffers back")
        let reusedBefore = pool.reused
        let second = try processor.process(data, folder: "photos/one")
        #expect(pool.reused > reusedBefore)
        #expect(second.encoded.map(\.data) == first.encoded.map(\.data))
        #expect(second.placeholder == first.placeholder && second.averageColor == first.averageColor)
    }
}
