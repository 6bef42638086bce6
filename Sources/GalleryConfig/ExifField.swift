import Foundation

/// A camera field a photo page can show (`images.exifFields`), in the order the default shows them.
///
/// The raw value is the config's name for the field and the theme string key of its label.
package enum ExifField: String, CaseIterable, Sendable, Equatable {
    case camera, lens, focalLength, aperture, exposure, iso
}
