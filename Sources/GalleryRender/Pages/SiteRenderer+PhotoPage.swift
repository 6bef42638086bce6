import Foundation
import GalleryModel

/// One page per photo: the preview, navigation, metadata, link previews and JSON-LD.
extension SiteRenderer {
    func photoModel(at index: Int, _ plan: SitePlan) throws -> PageModel {
        let items = plan.items
        let sections = plan.sections
        let item = try items[index]
        let photo = item.photo
        let path = item.pagePath
        let displayTitle = photo.title ?? item.altText
        let summary = photo.description.map { Markdown.plainText($0, limit: 200) }
        var page = pageContext(
            path: path, title: "\(displayTitle) · \(title)", description: summary, sections: sections)
        page.social.type = "article"
        page.noindex = sections.albums.isUnlisted(item: index)
        page = withSocialImage(page, item)
        let root = page.root
        func neighbor(_ other: GalleryItem) -> NeighborLink {
            var file: KeyPath<Derivative, String> = \Derivative.path
            if other.plan.webp { file = \Derivative.webpPath }
            if other.plan.avif { file = \Derivative.avifPath }
            return NeighborLink(
                href: root + other.pagePath, title: other.photo.title ?? other.altText,
                srcset: Self.srcset(other.plan.previewSources, root: root, path: file),
                sizes: Self.previewSizes(other))
        }
        let list = navigation(of: index, plan)
        let position = list.position
        let prev = position > 0 ? neighbor(try items[list.members[position - 1]]) : nil
        let next = position + 1 < list.members.count ? neighbor(try items[list.members[position + 1]]) : nil
        let tree = sections.albums
        let album = tree.albumOfItem[index]
        page.prevHref = prev?.href
        page.nextHref = next?.href

        let fullSize: (href: String, label: String, absolute: String?)
        let full = strings.text(
            "fullSize", ["width": String(item.displaySize.width), "height": String(item.displaySize.height)])
        switch item.original {
        case .published(let originalPath) where item.video != nil:
            fullSize = (
                root + originalPath,
                strings.text(
                    "downloadVideo",
                    [
                        "width": String(item.displaySize.width),
                        "height": String(item.displaySize.height)
                    ]),
                baseURL.map { $0.absoluteString + originalPath }
            )
        case .published(let originalPath):
            fullSize = (
                root + originalPath, full,
                baseURL.map { $0.absoluteString + originalPath }
            )
        case .remote(let address):
            fullSize = (address, full, address)
        case .none:
            let largest = item.plan.all[0]
            fullSize = (
                root + largest.path,
                strings.text(
                    "largestSize",
                    [
                        "width": String(largest.size.width),
                        "height": String(largest.size.height)
                    ]),
                baseURL.map { $0.absoluteString + largest.path }
            )
        }
        let largest = item.plan.all[0]
        let zoom =
            Self.browserShows(fullSize.href) && item.original != .none
            ? (fullSize.href, item.displaySize) : (root + largest.path, largest.size)
        let date = Formatting.date(photo.takenAt, strings: strings)
        page.jsonLD = imageObject(item, description: summary, contentURL: fullSize.absolute, date: date)
        let preview = item.plan.preview
        let thumbnail = item.plan.thumbnail
        let aspect = Double(item.displaySize.width) / Double(item.displaySize.height)
        var context = PhotoPageContext(
            site: site, page: page,
            photo: PhotoContext(
                id: photo.id, title: displayTitle, alt: item.altText,
                descriptionHTML: photo.description.map(Markdown.html),
                src: root + preview.path,
                srcset: Self.srcset(item.plan.previewSources, root: root, path: \.path),
                webpSrcset: item.plan.webp ? Self.srcset(item.plan.previewSources, root: root, path: \.webpPath) : nil,
                avifSrcset: item.plan.avif ? Self.srcset(item.plan.previewSources, root: root, path: \.avifPath) : nil,
                sizes: Self.previewSizes(item),
                width: preview.size.width, height: preview.size.height,
                transitionName: Self.transitionName(photo.id),
                stageStyle: "--ar:\(Formatting.fixed(aspect, digits: 4));background-color:\(item.averageColor)",
                thumbSrc: root + thumbnail.path, thumbWidth: thumbnail.size.width, thumbHeight: thumbnail.size.height,
                fullSizeHref: fullSize.href, fullSizeLabel: fullSize.label,
                zoomSrc: zoom.0, zoomWidth: zoom.1.width, zoomHeight: zoom.1.height,
                sourceHref: photo.sourcePage?.absoluteString,
                sourceLabel: photo.sourcePage?.host.map {
                    strings.text("viewOn", ["host": $0.hasPrefix("www.") ? String($0.dropFirst(4)) : $0])
                },
                location: showLocation ? photo.location.map(Formatting.coordinates) : nil,
                locationHref: showLocation ? photo.location.map(Formatting.mapLink) : nil,
                takenAtDisplay: date?.display, takenAtMachine: date?.machine,
                author: photo.author, authorHref: photo.authorURL?.absoluteString,
                licenseName: photo.license?.name, licenseHref: photo.license?.url?.absoluteString,
                album: album.map { tree.albums[$0].title },
                albumHref: album.map { root + tree.albums[$0].path(page: 1) },
                mapHref: showLocation && photo.location != nil ? root + SiteLayout.map + "#p-" + photo.id : nil,
                tags: tagLinks(photo.tags, root: root, sections: sections), hasTags: !photo.tags.isEmpty,
                exif: exifRows(photo.camera),
                video: item.video.flatMap { video in
                    item.videoPath.map { path in
                        VideoContext(
                            src: root + path, poster: root + preview.path, width: item.displaySize.width,
                            height: item.displaySize.height, duration: video.durationText,
                            durationMachine: video.isoDuration)
                    }
                },
                motionSrc: item.motionPath.map { root + $0 }, animated: item.animation != nil,
                motionIsImage: item.animation.map { $0 != .clip } ?? false,
                motionFormat: item.animation.map { $0.fileExtension.uppercased() }),
            prev: prev, next: next, backHref: root + list.backPath, backPage: list.backPage,
            backLabel: list.backLabel, position: position + 1, total: list.members.count,
            backText: strings.text("backPage", ["label": list.backLabel, "n": String(list.backPage)]),
            positionText: strings.text("position", ["n": String(position + 1), "total": String(list.members.count)]),
            breadcrumbs: album.map {
                Breadcrumbs(
                    links: crumbs(above: $0, tree, root: root)
                        + [Crumb(name: tree.albums[$0].title, href: root + tree.albums[$0].path(page: 1))],
                    current: displayTitle)
            })
        // The album's `download` (inherited), else the site's: a link to the file a visitor may have.
        if (album.map { tree.albums[$0].download } ?? download).linksPhotos {
            context.photo.download = DownloadLink(
                href: root + item.downloadPath, name: DownloadName.of(item),
                label: strings.text("download"))
        }
        return PageModel(path: path, template: "photo", context: context)
    }

    /// Whether a browser can draw the file a link points at, by its extension (HEIC, TIFF and RAW
    /// originals cannot be zoomed into; the viewer stops at the largest derivative then).
    package static func browserShows(_ href: String) -> Bool {
        let path = href.split(separator: "?", maxSplits: 1).first.map(String.init) ?? href
        let ext = (path as NSString).pathExtension.lowercased()
        return ["jpg", "jpeg", "png", "webp", "gif", "avif"].contains(ext)
    }

    /// The preview is as wide as the screen, unless the screen is wider than the photo's shape; then
    /// the height limits it (and its width is the aspect ratio times the screen's height).
    static func previewSizes(_ item: GalleryItem) -> String {
        let size = item.displaySize
        let aspect = Double(size.width) / Double(size.height)
        return
            "(max-aspect-ratio: \(size.width)/\(size.height)) 100vw, \(Formatting.fixed((aspect * 100).rounded(.up), digits: 0))vh"
    }

    private func tagLinks(_ tags: [String], root: String, sections: Sections) -> [TagLink] {
        tags.map { name in
            let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
            return TagLink(
                name: name,
                href: sections.tagSlugs[trimmed].map { root + SiteLayout.listing(SiteLayout.tag($0), page: 1) } ?? "",
                count: sections.tagCounts[trimmed] ?? 0)
        }.filter { !$0.href.isEmpty }
    }

    private func exifRows(_ camera: CameraInfo) -> [MetadataRow] {
        exifFields.compactMap { field in
            let value: String?
            switch field {
            case .camera: value = Formatting.camera(camera)
            case .lens: value = camera.lens
            case .focalLength: value = Formatting.focalLength(camera.focalLength)
            case .aperture: value = Formatting.aperture(camera.aperture)
            case .exposure: value = Formatting.exposure(camera.exposureTime)
            case .iso: value = Formatting.iso(camera.iso)
            }
            return value.map { MetadataRow(label: strings.text(field.rawValue), value: $0) }
        }
    }

    /// schema.org `ImageObject` for the page; URLs are absolute under `baseURL`, else relative to the page.
    private func imageObject(
        _ item: GalleryItem, description: String?, contentURL: String?,
        date: Formatting.DateText?
    ) -> ImageObject {
        let photo = item.photo
        let root = SiteLayout.photoPageRoot
        let url = { (path: String) in baseURL.map { $0.absoluteString + path } ?? root + path }
        let person = photo.author.map { ImageObject.Person(name: $0, url: photo.authorURL?.absoluteString) }
        var object = ImageObject(
            name: photo.title ?? item.altText, description: description,
            contentUrl: contentURL ?? url(item.plan.preview.path), thumbnailUrl: url(item.plan.thumbnail.path),
            url: absoluteURL(item.pagePath), width: item.displaySize.width, height: item.displaySize.height,
            author: person, creator: person, license: photo.license?.url?.absoluteString ?? photo.license?.name,
            dateCreated: date?.machine, keywords: photo.tags.isEmpty ? nil : photo.tags.joined(separator: ", "),
            creditText: photo.author)
        if let video = item.video {
            // schema.org's VideoObject: the web file, its length, and the date search engines ask for.
            object.type = "VideoObject"
            object.duration = video.isoDuration
            object.uploadDate = date?.machine
        }
        return object
    }
}
