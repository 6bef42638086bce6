import Foundation
import GalleryModel
import Mustache

/// The templates and static files a site is rendered with: the built-in theme, overridden file by
/// file by the site's own templates folder.
package struct Theme: Sendable {
    /// Template name (path without `.mustache`) to source text.
    package private(set) var templates: [String: String]
    /// Static files under `static/`, keyed by path relative to the theme root.
    package private(set) var staticFiles: [String: Data]
    /// The theme's strings, `i18n/<language>.json`, keyed by language tag (`ThemeStrings`).
    package private(set) var languages: [String: Data] = [:]
    /// Which of the site's own files overrode the built-in ones, for progress output.
    package private(set) var overrides: [String]

    /// Loads the built-in theme and layers `folder`'s files over it, if the folder exists.
    /// - Throws: `RenderError` when an override file cannot be read.
    package init(overridesIn folder: URL?) throws {
        var files = DefaultTheme.files
        var overridden: [String] = []
        if let folder, FileManager.default.fileExists(atPath: folder.path) {
            let root = folder.standardizedFileURL.path
            let walker = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey],
                options: [.skipsHiddenFiles])
            while let url = walker?.nextObject() as? URL {
                guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
                let path = url.standardizedFileURL.path
                guard path.hasPrefix(root + "/") else { continue }
                let relative = String(path.dropFirst(root.count + 1))
                guard let data = FileManager.default.contents(atPath: path) else {
                    throw RenderError(
                        .unreadableTemplate, "\(path): cannot read this template file; check its permissions")
                }
                if files[relative] != data { overridden.append(relative) }
                files[relative] = data
            }
        }
        templates = [:]
        staticFiles = [:]
        for (path, data) in files {
            if path.hasSuffix(".mustache") {
                templates[String(path.dropLast(".mustache".count))] = String(decoding: data, as: UTF8.self)
            } else if path.hasPrefix("static/") {
                staticFiles[path] = data
            } else if path.hasPrefix("i18n/"), path.hasSuffix(".json"), !path.dropFirst(5).contains("/") {
                languages[String(path.dropFirst(5).dropLast(5))] = data
            }
        }
        overrides = overridden.sorted()
    }

    /// Parses every template into a Mustache library.
    /// - Throws: `RenderError` naming the template and the parse problem.
    /// Each template is parsed with `FastHTMLEscaping` selected first, so `{{…}}` escapes exactly
    /// as swift-mustache's HTML content type does, only faster.
    package func library() throws -> MustacheLibrary {
        FastHTMLEscaping.registered
        var library = MustacheLibrary()
        for (name, text) in templates.sorted(by: { $0.key < $1.key }) {
            do {
                try library.register(Self.contentTypePragma + text, named: name)
            } catch {
                throw RenderError(
                    .templateSyntax,
                    "template \(name).mustache: \(Self.describe(error, prefix: Self.contentTypePragma, text: text))")
            }
        }
        for required in ["layout", "grid", "photo", "albums", "tags", "404", "atom", "sitemap"]
        where library.getTemplate(named: required) == nil {
            throw RenderError(.missingTemplate, "template \(required).mustache is missing from the theme")
        }
        return library
    }
}

/// A theme that cannot be used, or a page that could not be rendered.
///
/// Callers that act on the problem switch on `kind`, never on the words.
package typealias RenderError = KindedFailure<RenderErrorKind>

/// What went wrong, for a `RenderError`.
package enum RenderErrorKind: Sendable, Equatable {
    /// A file in the site's templates folder cannot be read.
    case unreadableTemplate
    /// A template does not parse; the words name it, the line and the column.
    case templateSyntax
    /// A template the site needs is not in the theme.
    case missingTemplate
    /// An `i18n/<language>.json` file is not JSON, or not an object of strings.
    case malformedStrings
    /// The site's language has no strings file in the theme.
    case unknownLanguage
}

extension Theme {
    /// A template parse error as a person reads it: where, and what is wrong, in words.
    static let contentTypePragma = "{{% CONTENT_TYPE: \(FastHTMLEscaping.name) }}"

    /// - Parameters:
    ///   - prefix: Text put before the template's own on its first line, which the column of an
    ///     error on that line leaves out.
    ///   - text: The template, whose sections `TemplateTags` reads to name both names of a misclosed
    ///     section and the line where an unclosed one opened (the library says neither).
    package static func describe(_ error: Error, prefix: String = "", text: String? = nil) -> String {
        guard let parse = error as? MustacheTemplate.ParserError else { return "\(error)" }
        switch parse.error as? MustacheTemplate.Error {
        case .expectedSectionEnd?, .sectionCloseNameIncorrect?:
            if let problem = text.flatMap({ TemplateTags($0).sectionProblem }) { return problem }
        default:
            break
        }
        let reason: String
        switch parse.error as? MustacheTemplate.Error {
        case .expectedSectionEnd?: reason = "a section is opened and never closed (add its {{/name}})"
        case .sectionCloseNameIncorrect?: reason = "a section is closed with a different name than it was opened with"
        case .unfinishedName?: reason = "a tag is not finished (missing }})"
        case .invalidSetDelimiter?: reason = "a set-delimiter tag is malformed"
        case .transformAppliedToInheritanceSection?: reason = "a transform is applied to an inherited section"
        case .illegalTokenInsideInheritSection?, .textInsideInheritSection?:
            reason = "only {{$block}} sections may stand inside {{<parent}}"
        default: reason = "\(parse.error)"
        }
        let line = parse.context.lineNumber
        let column = line == 1 ? max(1, parse.context.columnNumber - prefix.count) : parse.context.columnNumber
        return "line \(line), column \(column): \(reason)"
    }
}
