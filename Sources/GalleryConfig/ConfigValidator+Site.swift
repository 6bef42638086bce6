import Foundation

/// The site-wide settings besides images and sources: the theme's language and the map's tiles.
extension ConfigValidator {
    /// A BCP 47 language tag such as `de` or `pt-BR`. Whether the theme has strings for it is
    /// checked when the theme is loaded (`ThemeStrings`), since a site may add its own file.
    package func language(_ value: String?) throws -> String {
        guard let value else { return SiteConfig.Defaults.language }
        let parts = value.split(separator: "-", omittingEmptySubsequences: false)
        let valid =
            (2...3).contains(parts[0].count) && parts[0].allSatisfy { $0.isASCII && $0.isLetter }
            && parts.dropFirst().allSatisfy {
                (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            }
        guard valid else {
            throw ConfigError(
                file: name, key: "language",
                "\(JSONValue.string(value).quoted) is not a language tag such as \"en\", \"de\" or \"pt-BR\"")
        }
        return value
    }

    /// `map.tileURL` must be an http(s) URL (or a path relative to the site) with `{z}`, `{x}` and `{y}`.
    package func mapSettings(_ raw: SiteConfigFile.Map?) throws -> MapSettings {
        var settings = MapSettings()
        if let url = raw?.tileURL {
            let lower = url.lowercased()
            let scheme = lower.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            let relative = !lower.contains(":") && !lower.hasPrefix("//")
            guard ["{z}", "{x}", "{y}"].allSatisfy(url.contains), relative || ["http", "https"].contains(scheme),
                !url.contains(where: { $0 == "\"" || $0 == "<" || $0 == ">" || $0.isWhitespace })
            else {
                throw ConfigError(
                    file: name, key: "map.tileURL",
                    "\(JSONValue.string(url).quoted) is not a tile URL such as "
                        + "\"https://tile.openstreetmap.org/{z}/{x}/{y}.png\" (http or https, with {z}, {x} and {y})")
            }
            settings.tileURL = url
        }
        settings.attribution = raw?.attribution.flatMap { $0.isEmpty ? nil : $0 }
        return settings
    }
}
