import Foundation
import Testing

/// Every relative link of the manual (README.md and docs/*.md) leads somewhere.
///
/// The manual is one README and a file a topic in docs/, which link to each other and to headings
/// in each other (`configuration.md#sources`); a renamed heading or a moved file would otherwise
/// leave a link that GitHub shows as working until someone clicks it.
@Suite struct DocsLinkTests {
    /// README.md and every docs/*.md, in a stable order.
    static func manual() throws -> [URL] {
        let docs = Fixtures.repository.appendingPathComponent("docs")
        let pages = try FileManager.default.contentsOfDirectory(atPath: docs.path)
            .filter { $0.hasSuffix(".md") }.sorted()
            .map { docs.appendingPathComponent($0) }
        return [Fixtures.repository.appendingPathComponent("README.md")] + pages
    }

    @Test func everyRelativeLinkResolves() throws {
        let pages = try Self.manual()
        #expect(pages.count > 10, "docs/ should hold the manual's pages")
        for page in pages {
            let problems = try DocsLinks.problems(in: page)
            #expect(problems.isEmpty, "\(page.lastPathComponent): \(problems.joined(separator: "; "))")
        }
    }

    @Test func headingsGetGitHubSlugs() {
        #expect(
            DocsLinks.slug("Configuration reference (`site-config.json`)") == "configuration-reference-site-configjson")
        #expect(DocsLinks.slug("Building from Flickr, 500px or Parse") == "building-from-flickr-500px-or-parse")
        #expect(
            DocsLinks.slug("Incremental builds (10,000 to 1,000,000 photos)")
                == "incremental-builds-10000-to-1000000-photos")
        #expect(DocsLinks.anchors(in: "# A\n## A\n```\n# not a heading\n```\n## B b") == ["a", "a-1", "b-b"])
    }

    /// The check itself finds a missing file, a missing heading and a missing heading in the same
    /// page, and passes web links, code and links that resolve.
    @Test func brokenLinksAreFound() throws {
        let folder = try Fixtures.temporaryFolder()
        try Data("# Other\n## Real heading\n".utf8).write(to: folder.appendingPathComponent("other.md"))
        let page = folder.appendingPathComponent("page.md")
        try Data(
            """
            # Page
            [fine](other.md) [fine too](other.md#real-heading) [here](#page) [web](https://example.com/x.md)
            [gone](missing.md) [no heading](other.md#nothing) [not here](#nowhere) `[in code](missing.md)`
            ```
            [in a block](missing.md)
            ```
            """.utf8
        ).write(to: page)
        #expect(
            try DocsLinks.problems(in: page) == [
                "missing.md: no file missing.md",
                "other.md#nothing: no heading \"nothing\" in other.md",
                "#nowhere: no heading \"nowhere\" in page.md"
            ])
    }
}

/// Finds the links of a Markdown page and checks the relative ones.
enum DocsLinks {
    /// What is wrong with each relative link of the page at `url`: a file that does not exist,
    /// or a `#anchor` that no heading of the target Markdown file has.
    static func problems(in url: URL) throws -> [String] {
        let text = try String(contentsOf: url, encoding: .utf8)
        let folder = url.deletingLastPathComponent()
        var problems: [String] = []
        for target in links(in: text) where target.firstMatch(of: /^[a-zA-Z][a-zA-Z0-9+.-]*:/) == nil {
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let file = parts[0].isEmpty ? url : folder.appendingPathComponent(parts[0]).standardizedFileURL
            guard FileManager.default.fileExists(atPath: file.path) else {
                problems.append("\(target): no file \(parts[0])")
                continue
            }
            if parts.count == 2, file.pathExtension == "md" {
                let headings = anchors(in: try String(contentsOf: file, encoding: .utf8))
                if !headings.contains(parts[1]) {
                    problems.append("\(target): no heading \"\(parts[1])\" in \(file.lastPathComponent)")
                }
            }
        }
        return problems
    }

    /// The targets of the page's links and images, leaving out code blocks and code spans.
    static func links(in markdown: String) -> [String] {
        prose(markdown).flatMap { line in
            line.replacing(/`[^`]*`/, with: "").matches(of: /\[[^\]]*\]\(([^)\s]+)\)/).map { String($0.1) }
        }
    }

    /// The anchors GitHub gives the page's headings, a repeated one numbered `-1`, `-2`, ….
    static func anchors(in markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in prose(markdown) {
            guard let heading = line.firstMatch(of: /^#{1,6} (.+)$/) else { continue }
            let base = slug(String(heading.1))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
    static func slug(_ heading: String) -> String {
        String(
            heading.lowercased()
                .filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }
                .map { $0 == " " ? "-" : $0 })
    }

    /// The page's lines outside fenced code blocks.
    private static func prose(_ markdown: String) -> [Substring] {
        var inFence = false
        return markdown.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                return false
            }
            return !inFence
        }
    }
}
