import Foundation
import GalleryModel

/// Human-readable forms of photo metadata, for the photo page.
package enum Formatting {
    /// `Canon EOS 70D` rather than `Canon Canon EOS 70D`.
    package static func camera(_ info: CameraInfo) -> String? {
        switch (info.make, info.model) {
        case (let make?, let model?):
            let brand = make.split(separator: " ").first.map(String.init) ?? make
            return model.lowercased().hasPrefix(brand.lowercased()) ? model : "\(make) \(model)"
        case (let make?, nil): return make
        case (nil, let model?): return model
        default: return nil
        }
    }

    /// `value` with exactly `digits` decimals (0–6), as `%.Nf` writes it, for the sizes pages carry
    /// (aspect ratios, flex values), without `String(format:)`'s cost on every tile of every page.
    package static func fixed(_ value: Double, digits: Int) -> String {
        let scale = [1.0, 10, 100, 1_000, 10_000, 100_000, 1_000_000][digits]
        let exact = value * scale
        // Near a tie the product's own rounding could tip it either way; printf decides those.
        let nearTie = abs(exact - exact.rounded(.down) - 0.5) < 1e-6
        guard exact.isFinite, abs(exact) < 1e15, !nearTie else { return String(format: "%.\(digits)f", value) }
        let scaled = exact.rounded(.toNearestOrEven)
        let units = Int64(scaled)
        let sign = units < 0 ? "-" : ""
        let magnitude = units.magnitude
        let whole = magnitude / UInt64(scale)
        guard digits > 0 else { return sign + String(whole) }
        let fraction = String(magnitude % UInt64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    package static func focalLength(_ value: Double?) -> String? {
        value.map { "\(trimmed($0)) mm" }
    }

    package static func aperture(_ value: Double?) -> String? {
        value.map { "ƒ/\(trimmed(($0 * 10).rounded() / 10))" }
    }

    /// `1/250 s` for fractions of a second, `2.5 s` for long exposures.
    package static func exposure(_ seconds: Double?) -> String? {
        guard let seconds, seconds > 0 else { return nil }
        if seconds >= 0.3 { return "\(trimmed((seconds * 10).rounded() / 10)) s" }
        return "1/\(Int((1 / seconds).rounded())) s"
    }

    /// `51.22805° N, 115.49658° W`.
    static func coordinates(_ point: GeoPoint) -> String {
        String(
            format: "%.5f° %@, %.5f° %@", abs(point.latitude), point.latitude < 0 ? "S" : "N",
            abs(point.longitude), point.longitude < 0 ? "W" : "E")
    }

    static func mapLink(_ point: GeoPoint) -> String {
        String(
            format: "https://www.openstreetmap.org/?mlat=%.5f&mlon=%.5f#map=13/%.5f/%.5f",
            point.latitude, point.longitude, point.latitude, point.longitude)
    }

    package static func iso(_ value: Int?) -> String? {
        value.map { "ISO \($0)" }
    }

    /// A number without a trailing `.0`.
    package static func trimmed(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }

    /// A date for display and, when it is a valid HTML date string, for `<time datetime>`.
    package struct DateText {
        package var display: String
        package var machine: String?
    }

    /// Reads a date as `PhotoDate` does; the display form is in the language of `strings`
    /// (`dateFormat`, `dateTimeFormat`, `month1`…). Text that is not such a date is shown as written.
    package static func date(_ text: String?, strings: ThemeStrings = .english) -> DateText? {
        guard let text else { return nil }
        guard let parsed = PhotoDate(text) else { return DateText(display: text, machine: nil) }
        var display = strings.date(year: parsed.year, month: parsed.month, day: parsed.day)
        if let hour = parsed.hour, let minute = parsed.minute {
            display = strings.text(
                "dateTimeFormat", ["date": display, "time": String(format: "%02d:%02d", hour, minute)])
        }
        return DateText(display: display, machine: parsed.machine)
    }

    /// An RFC 3339 timestamp for Atom (`2018-04-02T00:00:00Z`), or nil when the date cannot be read.
    /// A date without a time is midnight, and a time without an offset is taken as UTC.
    package static func rfc3339(_ text: String?) -> String? {
        guard let machine = date(text)?.machine else { return nil }
        if machine.count == 10 { return machine + "T00:00:00Z" }
        let time = machine.dropFirst(11)
        var result = String(machine.prefix(16))
        let hasSeconds = time.count >= 8 && time.dropFirst(5).first == ":"
        result += hasSeconds ? String(time.dropFirst(5).prefix(3)) : ":00"
        let zone = time.dropFirst(hasSeconds ? 8 : 5)
        return result + (zone.isEmpty ? "Z" : String(zone))
    }
}
