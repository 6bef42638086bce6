import Foundation
import GalleryRender
import Testing

/// Template mistakes said with their place: both names of a misclosed section and the line where it
/// opened, an unclosed section where it opened, and names or partials that render as nothing.
@Suite("Template errors and warnings")
struct TemplateErrorTests {
    /// The default theme with `grid.mustache` replaced by `grid`.
    static func theme(grid: String) throws -> Theme {
        let folder = try Fixtures.temporaryFolder()
        try grid.write(to: folder.appendingPathComponent("grid.mustache"), atomically: true, encoding: .utf8)
        return try Theme(overridesIn: folder)
    }

    @Test func sectionErrorsNameBothNamesAndWhereTheSectionOpened() throws {
        let cases = [
            (
                "<ul>\n  {{#photos}}\n    <li>{{title}}</li>\n  {{/photo}}\n</ul>",
                "template grid.mustache: section {{#photos}} opened at line 2, column 3 is closed with {{/photo}} at line 4, column 3; "
                    + "close it with {{/photos}}"
            ),
            (
                "{{<layout}}{{$content}}\n{{#pagination}}\n<p>{{heading}}</p>\n{{/content}}{{/layout}}",
                "template grid.mustache: section {{#pagination}} opened at line 2, column 1 is closed with {{/content}} at line 4, "
                    + "column 1; close it with {{/pagination}}"
            ),
            (
                "<h1>{{heading}}</h1>\n{{^photos}}\n<p>none</p>\n",
                "template grid.mustache: section {{^photos}} opened at line 2, column 1 is never closed; add {{/photos}} where it should end"
            ),
            (
                "<h1>{{heading}}</h1>\n{{/photos}}",
                "template grid.mustache: {{/photos}} at line 2, column 1 closes no open section; remove it"
            )
        ]
        for (grid, expected) in cases {
            let theme = try Self.theme(grid: grid)
            let error = try #require(throws: RenderError.self) { try theme.library() }
            #expect(error.kind == .templateSyntax)
            #expect(error.description == expected)
        }
        // A template that sets other delimiters keeps the library's own message.
        let other = try Self.theme(grid: "{{=<% %>=}}\n<%#photos%>\n")
        let error = try #require(throws: RenderError.self) { try other.library() }
        #expect(error.kind == .templateSyntax)
        // The words name the template and the line, as a person reads them.
        #expect(error.description.hasPrefix("template grid.mustache: line "), "\(error)")
    }

    @Test func namesAndPartialsThatRenderAsNothingAreWarnedAbout() throws {
        let theme = try Self.theme(
            grid: """
                {{<layout}}{{$content}}
                <h1>{{heading}} {{titel}}</h1>
                {{#photos}}{{photo.alt}} {{lowercased(hrf)}} {{site.t.anything}} {{#first}}{{.}}{{/first}}{{/photos}}
                {{>breadcrumb}} {{>footer-of-mine}}
                {{/content}}{{/layout}}
                """)
        #expect(throws: Never.self) { try theme.library() }
        #expect(
            theme.warnings() == [
                #"template grid.mustache, line 2, column 17: no page has a field "titel" (in {{titel}}); did you mean "title"? it renders as nothing"#,
                #"template grid.mustache, line 3, column 26: no page has a field "hrf" (in {{lowercased(hrf)}}); did you mean "href"? it renders as nothing"#,
                "template grid.mustache, line 4, column 1: {{>breadcrumb}} names no template; did you mean {{>breadcrumbs}}? it renders as nothing",
                "template grid.mustache, line 4, column 17: {{>footer-of-mine}} names no template; it renders as nothing"
            ])
        #expect(try Theme(overridesIn: nil).warnings() == [])
    }
}
