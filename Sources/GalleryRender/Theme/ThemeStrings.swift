import Foundation
import GalleryConfig

/// The theme's words in the site's `language`: `i18n/<language>.json` from the theme, which a site
/// overrides file by file like a template (`templates/i18n/de.json`). A flat JSON object of strings;
/// `{name}` marks a value put in (`"Photo {n} of {total}"`). A key the file lacks falls back to
/// English, so a site's file may hold only the strings it changes. `pt-BR` uses `pt-BR.json`, else
/// `pt.json`; a language with neither is an error naming the `language` key.
package struct ThemeStrings: Sendable {
    /// The tag for `<html lang>`.
    package let language: String
    package let table: [String: String]

    /// - Throws: `RenderError` when the language has no file, or a file is not an object of strings.
    package init(theme: Theme, language: String) throws {
        func load(_ tag: String) throws -> [String: String]? {
            guard let data = theme.languages[tag] else { return nil }
            do {
                try JSONSyntax.check(data)
            } catch {
                throw RenderError(.malformedStrings, "i18n/\(tag).json:\(error.position): \(error.problem)")
            }
            guard let table = try? JSONDecoder().decode([String: String].self, from: data) else {
                throw RenderError(
                    .malformedStrings,
                    "i18n/\(tag).json: expected a JSON object of strings, such as {\"navPhotos\": \"Fotos\"}")
            }
            return table
        }
        let primary = String(language.split(separator: "-").first ?? Substring(language))
        guard let own = try load(language) ?? load(primary) else {
            let known = theme.languages.keys.sorted().joined(separator: ", ")
            throw RenderError(
                .unknownLanguage,
                "language: \"\(language)\" has no strings: the theme has i18n files for \(known); "
                    + "add templates/i18n/\(language).json (a copy of i18n/en.json, translated) or pick one of those")
        }
        var table = try load("en") ?? [:]
        table.merge(own) { _, own in own }
        self.language = language
        self.table = table
    }

    /// English only, for models made outside a build (tests, previews).
    package static let english: ThemeStrings = {
        do {
            return try ThemeStrings(theme: Theme(overridesIn: nil), language: "en")
        } catch {
            preconditionFailure("built-in English strings: \(error)")
        }
    }()

    /// The string for `key` with each `{name}` replaced; the key itself when no file has it.
    package func text(_ key: String, _ values: [String: String] = [:]) -> String {
        var result = table[key] ?? key
        for (name, value) in values { result = result.replacingOccurrences(of: "{\(name)}", with: value) }
        return result
    }

    /// `1 photo` / `5 photos`: the key's `One` or `Many` form (`photoCountOne`, `photoCountMany`).
    package func count(_ key: String, _ number: Int) -> String {
        text(key + (number == 1 ? "One" : "Many"), ["n": String(number)])
    }

    /// A date as the language writes it, from `Formatting.date`'s parts.
    package func date(year: Int, month: Int, day: Int) -> String {
        text("dateFormat", ["y": String(year), "m": String(month), "d": String(day), "month": text("month\(month)")])
    }

    /// What templates see as `site.t`: every string, `{name}` placeholders left in.
    var templateStrings: [String: String] { table }
}
