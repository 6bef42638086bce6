import Foundation
import GalleryConfig
import GalleryMetadata
import GalleryModel

/// Camera raw files in the one path every format follows: headers, then a decode at the planned size.
extension ImageProcessor {
    /// A raw's facts: LibRaw's size, orientation, camera and date and its preview's size; for the raws
    /// that are TIFF files (DNG, CR2, NEF, ARW, PEF), their EXIF as libexif reads it too, which gives
    /// the capture time with its offset and fills what LibRaw leaves out. XMP comes from the file.
    static func rawHeaders(_ data: Data) throws -> HeaderReading {
        let header = try RAWCodec.header(data)
        let isTIFF = ImageFormat.isTIFFContainer(data)
        let tiffExif = isTIFF ? ExifReader.read(exif: data) : ExifInfo()
        var camera = tiffExif.camera
        camera.make = camera.make ?? header.camera.make
        camera.model = camera.model ?? header.camera.model
        camera.lens = camera.lens ?? header.camera.lens
        camera.focalLength = camera.focalLength ?? header.camera.focalLength
        camera.aperture = camera.aperture ?? header.camera.aperture
        camera.exposureTime = camera.exposureTime ?? header.camera.exposureTime
        camera.iso = camera.iso ?? header.camera.iso
        let exif = ExifInfo(
            orientation: header.orientation, camera: camera, takenAt: tiffExif.takenAt ?? header.takenAt,
            location: tiffExif.location)
        let blocks = MetadataBlocks(exif: isTIFF ? data : nil, xmp: header.xmp)
        var facts = OriginalFacts(format: .raw, size: header.size, exif: exif, embedded: EmbeddedMetadata.read(blocks))
        facts.preview = header.preview
        return HeaderReading(facts: facts, jpegHeader: nil, iccProfile: nil)
    }

    /// Whether a raw is published from its embedded preview under `images.raw` "preview": the preview
    /// covers the largest derivative (in stored orientation) and has the raw's shape (within 1 %),
    /// so no derivative is upscaled or stretched. Otherwise the raw is developed.
    static func usesPreview(_ facts: OriginalFacts, largest: PixelSize, policy: RawPolicy) -> Bool {
        guard policy == .preview, let preview = facts.preview, preview.width > 0, preview.height > 0 else {
            return false
        }
        let needed = Orientation.displaySize(of: largest, orientation: facts.exif.orientation)
        let rawShape = Double(facts.size.width) / Double(facts.size.height)
        let previewShape = Double(preview.width) / Double(preview.height)
        return preview.width >= needed.width && preview.height >= needed.height
            && abs(previewShape / rawShape - 1) <= 0.01
    }

    /// Decodes a raw at `job.decodeSize`: its preview (JPEG or RGB) or a development by LibRaw.
    func decodeRaw(_ job: ImageJob) throws -> (bitmap: Bitmap, warnings: [String]) {
        guard job.rawPreview else { return (try RAWCodec.develop(job.data), []) }
        switch try RAWCodec.preview(job.data) {
        case .bitmap(let bitmap):
            return (bitmap, [])
        case .jpeg(let jpeg):
            let header = try JPEGCodec.header(jpeg)
            return try JPEGCodec.decodeReportingWarnings(jpeg, header: header, size: header.size)
        }
    }
}
