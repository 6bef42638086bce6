import Foundation
import GalleryConfig
import GalleryImaging
import GalleryMetadata
import GalleryRender
import Testing

/// Published originals carry no GPS position and no serial number unless the config asks for the
/// file as-is; their pixels, orientation and colour profile are untouched.
@Suite struct PublishedOriginalTests {
    /// Strings written into Fixtures/privacy/camera.jpg that identify a place, a camera or a person.
    static let secrets = [
        "SN-BODY-12345", "SN-LENS-67890", "SN-XMP-555", "Owner Name", "0123456789abcdef", "Reykjavik",
        "64,8.796N"
    ]

    @Test func strippingKeepsPixelsOrientationAndProfileButNoLocationOrSerials() throws {
        let original = try Fixtures.data("privacy/camera.jpg")
        #expect(ExifReader.read(jpeg: original).location != nil)
        #expect(original.range(of: Data("SN-BODY-12345".utf8)) != nil)
        let stripped = try PublishedOriginal.strippedJPEG(original)
        for secret in Self.secrets {
            #expect(stripped.range(of: Data(secret.utf8)) == nil, "\(secret) is still in the published original")
        }
        let exif = ExifReader.read(jpeg: stripped)
        #expect(exif.location == nil)
        #expect(exif.orientation == 6)
        #expect(exif.camera.make == "TestCam")
        #expect(stripped.range(of: Data("(c) Test Person".utf8)) != nil)
        #expect(ICCProfile.fromJPEG(stripped) == ICCProfile.fromJPEG(original))
        // Only the first picture: the second JPEG appended after it is gone.
        #expect(
            [UInt8](stripped).indices.dropLast().filter { stripped[$0] == 0xff && stripped[$0 + 1] == 0xd8 }.count == 1)
        // Pixels bit for bit: the entropy-coded data is copied, so both decode to the same bitmap.
        let header = try JPEGCodec.header(original)
        #expect(try JPEGCodec.header(stripped).size == header.size)
        #expect(
            try JPEGCodec.decode(stripped, header: header, size: header.size)
                == JPEGCodec.decode(original, header: header, size: header.size))
    }

    @Test func exiftoolFindsNoLocationOrSerialInThePublishedOriginal() async throws {
        let site = try FixtureSite.make(entries: [["id": "camera", "title": "Camera", "image": "photos/camera.jpg"]])
        try FileManager.default.copyItem(
            at: Fixtures.url("privacy/camera.jpg"),
            to: site.folder.appendingPathComponent("photos/camera.jpg"))
        let report = try await site.build()
        #expect(report.photosPublished == 1)
        let published = site.output.appendingPathComponent("photos/camera/original.jpg")
        let data = try Data(contentsOf: published)
        for secret in Self.secrets { #expect(data.range(of: Data(secret.utf8)) == nil, "\(secret) was published") }
        guard let tags = try Exiftool.tags(of: published) else { return }
        #expect(
            !tags.contains { $0.hasPrefix("[GPS]") || $0.contains("GPSLatitude") || $0.contains("GPSPosition") },
            "\(tags)")
        #expect(
            !tags.contains { $0.contains("SerialNumber") || $0.contains("OwnerName") || $0.contains("ImageUniqueID") })
        #expect(tags.contains { $0.hasPrefix("[IFD0]") && $0.contains("Orientation") })
        #expect(tags.contains { $0.hasPrefix("[ICC_Profile]") && $0.contains("Adobe RGB") })
    }

    @Test func policyDecidesWhatTheFullSizeLinkGets() async throws {
        let entries: [[String: Any]] = [
            ["id": "gps", "title": "GPS", "image": "photos/gps.jpg"],
            ["id": "png", "title": "PNG", "image": "photos/half-transparent.png"]
        ]
        let original = try Fixtures.data("images/gps.jpg")
        for (setting, expectJPEG) in [(true as Any, "stripped"), (false as Any, "none"), ("as-is" as Any, "as-is")] {
            let site = try FixtureSite.make(
                entries: entries,
                config: [
                    "images": [
                        "thumbnail": 64, "preview": 96,
                        "publishOriginals": setting
                    ]
                ])
            _ = try await site.build()
            let files = site.outputFiles()
            let jpeg = site.output.appendingPathComponent("photos/gps/original.jpg")
            switch expectJPEG {
            case "none":
                #expect(!files.contains { $0.hasSuffix("/original.jpg") || $0.hasSuffix("/original.png") })
            case "as-is":
                #expect(try Data(contentsOf: jpeg) == original)
                #expect(files.contains("photos/png/original.png"))
            default:
                let published = try Data(contentsOf: jpeg)
                #expect(published != original)
                #expect(ExifReader.read(jpeg: published).location == nil)
                // Other formats cannot be stripped losslessly: their page links the largest derivative.
                #expect(!files.contains("photos/png/original.png"))
                let page = try site.read("photos/png/index.html")
                #expect(!page.contains("original.png"))
            }
        }
    }

    @Test func unknownPolicyIsAConfigErrorNamingTheKey() throws {
        let site = try FixtureSite.make(entries: [], config: ["images": ["publishOriginals": "sometimes"]])
        #expect {
            _ = try SiteConfig.load(from: site.configURL, environment: [:])
        } throws: { error in
            "\(error)".contains("images.publishOriginals") && "\(error)".contains("as-is")
        }
    }

    /// Junk bytes before a marker are dropped, as libjpeg and browsers skip them: the published
    /// original decodes to the same pixels, now without the decoder's warning.
    @Test func junkBeforeAMarkerIsDroppedAsDecodersDo() throws {
        let original = try Fixtures.data("formats/jpeg-extraneous.jpg")
        let stripped = try PublishedOriginal.strippedJPEG(original)
        #expect(stripped.count == original.count - 5)
        let header = try JPEGCodec.header(original)
        let before = try JPEGCodec.decodeReportingWarnings(original, header: header, size: header.size)
        let after = try JPEGCodec.decodeReportingWarnings(stripped, header: header, size: header.size)
        #expect(!before.warnings.isEmpty)
        #expect(after.warnings.isEmpty, "\(after.warnings)")
        #expect(after.bitmap == before.bitmap)
    }

    @Test func brokenMarkersAreAnErrorNotAHalfStrippedFile() throws {
        var bytes = [UInt8](try Fixtures.data("privacy/camera.jpg"))
        bytes[3] = 0xff
        bytes[4] = 0xff
        bytes[5] = 0xff  // APP0's length no longer fits the file
        bytes.removeSubrange(40...)
        #expect(throws: ImagingError.self) { try PublishedOriginal.strippedJPEG(Data(bytes)) }
        #expect(throws: ImagingError.self) { try PublishedOriginal.strippedJPEG(Data()) }
    }
}

/// `exiftool -a -G1 -s`, an independent reader of every metadata block. In CI it must be installed
/// (`.ci/run` installs it); elsewhere a test that needs it checks the bytes only.
enum Exiftool {
    /// Each tag line of the file, such as `[GPS] GPSLatitude : 64 deg 8' 47.76"`, or nil without exiftool.
    static func tags(of file: URL) throws -> [String]? {
        let candidates = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"]
        guard let tool = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            if ProcessInfo.processInfo.environment["CI"] != nil { Issue.record("exiftool is missing in CI") }
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-a", "-G1", "-s", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
        }
    }
}
