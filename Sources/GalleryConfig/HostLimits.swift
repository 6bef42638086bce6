import Foundation

/// What a host takes of one site, as the host publishes it: nil where it publishes no limit for
/// that dimension (galleryssg invents none).
///
/// Every figure is in `table`, the one place they are written, with the page each was read from
/// and when; docs/hosts.md has the same table for people. A limit is the most a site may have:
/// a site at exactly the limit fits.
public struct HostLimits: Sendable, Equatable, Codable {
    /// Files one site may hold.
    package var files: Int?
    /// Bytes one file may have.
    package var fileBytes: Int?
    /// Bytes the whole site may have.
    package var totalBytes: Int?
    /// Files one folder may hold directly (its subfolders' files are theirs).
    package var filesPerFolder: Int?
    /// The pages the figures were read from.
    package var sources: [String]
    /// When they were read (ISO 8601 date).
    package var read: String

    package init(
        files: Int? = nil, fileBytes: Int? = nil, totalBytes: Int? = nil, filesPerFolder: Int? = nil,
        sources: [String] = [], read: String = HostLimits.readOn
    ) {
        self.files = files
        self.fileBytes = fileBytes
        self.totalBytes = totalBytes
        self.filesPerFolder = filesPerFolder
        self.sources = sources
        self.read = read
    }

    private enum CodingKeys: String, CodingKey { case files, fileBytes, totalBytes, filesPerFolder, sources, read }

    /// Writes a limit the host publishes none of as `null`, so that a report says so.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(files, forKey: .files)
        try container.encode(fileBytes, forKey: .fileBytes)
        try container.encode(totalBytes, forKey: .totalBytes)
        try container.encode(filesPerFolder, forKey: .filesPerFolder)
        try container.encode(sources, forKey: .sources)
        try container.encode(read, forKey: .read)
    }

    /// The day the figures of `table` were read from their sources.
    static let readOn = "2026-11-29"

    private static let mebibyte = 1 << 20
    private static let gibibyte = 1 << 30

    /// Every host's limits, with the plan they hold for (nil: every plan). Read on 2026-11-29.
    package static let table: [(host: DeployHost, plan: HostPlan?, limits: HostLimits)] = [
        // Amazon S3, https://docs.aws.amazon.com/AmazonS3/latest/userguide/upload-objects.html
        // (read 2026-11-29): "With a single PUT operation, you can upload a single object up to
        // 5 GB in size"; objects up to 5 TB need a multipart upload, which galleryssg deploy does not
        // make (one PUT per file). S3's GB are binary (its part sizes are "5 MiB to 5 GiB",
        // https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html). No limit on objects.
        (
            .s3, nil,
            HostLimits(
                fileBytes: 5 * gibibyte,
                sources: [
                    "https://docs.aws.amazon.com/AmazonS3/latest/userguide/upload-objects.html",
                    "https://docs.aws.amazon.com/AmazonS3/latest/userguide/qfacts.html"
                ])
        ),
        // GitHub Pages, https://docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits
        // (read 2026-11-29): "Published GitHub Pages sites may be no larger than 1 GB"; actions/deploy-pages
        // compares the artifact with ONE_GIGABYTE = 1073741824 (src/internal/deployment.js).
        // https://docs.github.com/en/repositories/working-with-files/managing-large-files/about-large-files-on-github:
        // GitHub "blocks files larger than 100 MB" in a repository (a gh-pages branch; git reports
        // "GitHub's file size limit of 100.00 MB", binary). No limit on the number of files.
        (
            .githubPages, nil,
            HostLimits(
                fileBytes: 100 * mebibyte, totalBytes: gibibyte,
                sources: [
                    "https://docs.github.com/en/pages/getting-started-with-github-pages/github-pages-limits",
                    "https://docs.github.com/en/repositories/working-with-files/managing-large-files/about-large-files-on-github",
                    "https://github.com/actions/deploy-pages/blob/main/src/internal/deployment.js"
                ])
        ),
        // Cloudflare Pages, https://developers.cloudflare.com/pages/platform/limits/ (read 2026-11-29):
        // "Cloudflare Pages sites can contain up to 20,000 files on the Free plan"; "The maximum file
        // size for a single Cloudflare Pages site asset is 25 MiB". No limit on the site's bytes.
        (
            .cloudflarePages, .free,
            HostLimits(
                files: 20_000, fileBytes: 25 * mebibyte,
                sources: ["https://developers.cloudflare.com/pages/platform/limits/"])
        ),
        // The same page, and https://developers.cloudflare.com/changelog/post/2026-01-23-pages-file-limit-increase/
        // (read 2026-11-29): "Workers Paid plans can have up to 100,000 files per site", once the
        // project sets PAGES_WRANGLER_MAJOR_VERSION=4.
        (
            .cloudflarePages, .paid,
            HostLimits(
                files: 100_000, fileBytes: 25 * mebibyte,
                sources: [
                    "https://developers.cloudflare.com/pages/platform/limits/",
                    "https://developers.cloudflare.com/changelog/post/2026-01-23-pages-file-limit-increase/"
                ])
        ),
        // Netlify, https://docs.netlify.com/site-deploys/overview/ (read 2026-11-29): "While Netlify
        // doesn't have a limit on the number of files per deploy, we do have a limit of 54,000 files
        // per directory." No file size or site size limit is published for a deploy.
        (
            .netlify, nil,
            HostLimits(filesPerFolder: 54_000, sources: ["https://docs.netlify.com/site-deploys/overview/"])
        ),
        // A local or mounted folder: no limits but the disk's.
        (.folder, nil, HostLimits())
    ]

    /// The limits of `host` on `plan` (nil: the host's only row).
    package static func of(_ host: DeployHost, plan: HostPlan?) -> HostLimits {
        let rows = table.filter { $0.host == host }
        return (rows.first { $0.plan == plan } ?? rows.first { $0.plan == nil } ?? rows[0]).limits
    }
}
