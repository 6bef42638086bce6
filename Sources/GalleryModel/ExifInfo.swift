import Foundation

/// What an original's EXIF block says: orientation, camera, exposure and capture time.
package struct ExifInfo: Sendable, Equatable, Codable {
    /// EXIF orientation 1–8; 1 when absent or out of range.
    package var orientation: Int = 1
    package var camera = CameraInfo()
    /// DateTimeOriginal as ISO 8601 (`2015-03-14T10:22:01`, with `+01:00` when OffsetTimeOriginal is set).
    package var takenAt: String?
    /// GPS position, when the camera recorded one. Shown only if the site sets `images.showLocation`.
    package var location: GeoPoint?

    package init(
        orientation: Int = 1, camera: CameraInfo = CameraInfo(), takenAt: String? = nil, location: GeoPoint? = nil
    ) {
        self.orientation = orientation
        self.camera = camera
        self.takenAt = takenAt
        self.location = location
    }
}
