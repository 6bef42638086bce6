import Foundation
import GalleryModel

/// How a photo's descriptive fields are filled from every place that may know them.
///
/// Precedence, field by field (the first that has a value wins):
/// 1. the manifest or provider (for the folder source, its sidecar `NAME.md`, then `NAME.xmp`,
///    already applied by `PhotoSidecar.apply`, which only fills what the provider left empty);
/// 2. what the file says, chosen between its EXIF, IPTC-IIM and XMP by the Metadata Working Group's
///    rules as ExifTool applies them (`EmbeddedMetadata.read`; the rules are in
///    `EmbeddedMetadata+MWG.swift`), with the headline as the title where the file has no title;
/// 3. for the title only, the file name (`Photo.fallbackTitle`); for the time taken only, a Google
///    Takeout sidecar's UTC time (`Photo.fallbackTakenAt`), below the file's local EXIF time.
///
/// Tags are not mixed: one block gives all of them, so keywords a photographer removed in
/// Lightroom do not come back from an older IPTC block.
package enum PhotoMetadata {
    /// The photo as the site shows it: `photo`'s own fields, gaps filled from what the file says.
    ///
    /// Embedded captions are plain text while `Photo.description` is Markdown, so a caption's
    /// Markdown punctuation is escaped (`markdownLiteral`) and `*not bold*` shows as written.
    /// Camera and location keep their old rule: the source's values, EXIF filling the gaps.
    package static func merge(photo: Photo, facts: OriginalFacts) -> Photo {
        let embedded = facts.embedded
        var merged = photo
        merged.title = photo.title ?? embedded.title ?? photo.fallbackTitle
        merged.description = photo.description ?? embedded.caption.map(markdownLiteral)
        merged.tags = photo.tags.isEmpty ? embedded.keywords : photo.tags
        merged.author = photo.author ?? embedded.creator
        merged.license = photo.license ?? license(rights: embedded.rights, url: embedded.licenseURL)
        merged.takenAt = photo.takenAt ?? embedded.takenAt ?? facts.exif.takenAt ?? photo.fallbackTakenAt
        merged.rating = photo.rating ?? embedded.rating
        merged.camera = photo.camera.filling(from: facts.exif.camera)
        merged.location = photo.location ?? facts.exif.location
        return merged
    }

    /// A licence from a rights statement and a licence link: the statement names it, or, without
    /// one, the SPDX id of a well-known licence link (`CC-BY-4.0`) or the link itself.
    package static func license(rights: String?, url: URL?) -> License? {
        if let rights { return License(name: rights, url: url) }
        guard let url else { return nil }
        let known = License.knownURLs.filter { $0.value == url }.map(\.key).sorted().first
        return License(name: known ?? url.absoluteString, url: url)
    }

    /// Plain text as Markdown that renders to the same text: every ASCII punctuation character is
    /// backslash-escaped (CommonMark allows that for all of them), leading spaces are dropped so no
    /// line becomes a code block, and a single line break stays a line break.
    package static func markdownLiteral(_ text: String) -> String {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var escaped = ""
            for character in line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\r" }) where character != "\r" {
                if character.isASCII, character.isPunctuation || character.isSymbol { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped.trimmingCharacters(in: .whitespaces)
        }
        var result: [String] = []
        for (index, line) in lines.enumerated() {
            let next = index + 1 < lines.count ? lines[index + 1] : ""
            result.append(!line.isEmpty && !next.isEmpty ? line + "\\" : line)  // `\` at the end: a hard break
        }
        return result.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
