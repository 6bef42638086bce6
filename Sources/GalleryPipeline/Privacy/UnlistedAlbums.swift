import Foundation
import GalleryModel
import GalleryProviders
import GalleryRender
import GalleryStore
import GalleryVault

/// Albums with `unlisted: true` and every album below them: built, but reachable by their link only.
///
/// Their photos get ids made of the site secret's tokens (`SiteSecret`) before any step sees them, so
/// a photo's folder (`photos/ID/`) cannot be guessed from its file name or the source's id; the album's
/// own folder gets a token beside its slug in the renderer (`AlbumTree`). What lists photos and albums
/// (the home grid, tags, search, feed, sitemap, map, album cards and counts) leaves them out there too.
package enum UnlistedAlbums {
    /// The cleaned paths of the albums marked `unlisted: true` (not those below them).
    package static func marked(_ albums: [String: AlbumInfo]) -> Set<String> {
        Set(albums.compactMap { path, info in info.unlisted == true ? AlbumPath.normalized(path) : nil })
    }

    /// The marked album an album path is in (itself or the highest one above it), if any.
    static func markedAlbum(of album: String?, marked: Set<String>) -> String? {
        let parts = AlbumPath.components(album)
        return parts.indices.lazy.map { parts[...$0].joined(separator: "/") }.first { marked.contains($0) }
    }

    /// Marks again the albums that photos from the state say were unlisted: a build from the state
    /// (`--offline`) has no album settings, and must not list what the last build kept unlisted.
    static func restoreMarks(_ manifest: inout Manifest) {
        for path in Set(manifest.photos.compactMap(\.unlistedIn)) where manifest.albums[path]?.unlisted == nil {
            manifest.albums[path, default: AlbumInfo()].unlisted = true
        }
    }

    /// Puts the photos of unlisted albums under their token ids (once: a photo that has one keeps it)
    /// and renames album covers that name them to match.
    /// - Returns: Each marked album's token, by its cleaned path, for its folder's name; empty when no
    ///   album is unlisted.
    package static func apply(_ manifest: inout Manifest, secret: SiteSecret) -> [String: String] {
        restoreMarks(&manifest)
        let marked = marked(manifest.albums)
        guard !marked.isEmpty else { return [:] }
        var renamed: [String: String] = [:]
        for index in manifest.photos.indices where manifest.photos[index].unlistedIn == nil {
            guard let album = markedAlbum(of: manifest.photos[index].album, marked: marked) else { continue }
            let id = manifest.photos[index].id
            let token = "u" + secret.token("photo", id)
            renamed[id] = token
            manifest.photos[index].id = token
            manifest.photos[index].unlistedIn = album
        }
        manifest.renameCovers(renamed)
        return Dictionary(uniqueKeysWithValues: marked.map { ($0, secret.token("album", $0)) })
    }
}

extension Manifest {
    /// Album covers that name a renamed photo (by its old id) name its new id.
    mutating func renameCovers(_ renamed: [String: String]) {
        for (path, info) in albums {
            if let cover = info.cover, let token = renamed[cover] { albums[path]?.cover = token }
        }
    }
}

/// What the build hides: unlisted albums' tokens, the folders of albums inside protected ones, and
/// the protected albums with their keys.
struct HiddenAlbums: Sendable {
    var tokens: [String: String] = [:]
    var folders: [String: String] = [:]
    var protected: [ProtectedAlbum] = []
    /// The whole site's key, when the config gives it a password.
    var site: ProtectedSite?
}

extension Build {
    /// Gives the photos of protected and unlisted albums their token ids (`ProtectedAlbums.apply`,
    /// `UnlistedAlbums.apply`), reading the site secret and the albums' keys only when an album is
    /// hidden (and saying so when the secret had to be made).
    func hideAlbums(_ manifest: inout Manifest) throws -> HiddenAlbums {
        let environment = ProcessInfo.processInfo.environment
        var hidden = HiddenAlbums()
        let albums =
            !ProtectedAlbums.marked(manifest.albums).isEmpty || !UnlistedAlbums.marked(manifest.albums).isEmpty
            || manifest.photos.contains(where: { $0.unlistedIn != nil })
        guard albums || config.password != nil else { return hidden }
        var store = try AlbumKeyStore.load(stateDirectory: config.stateDirectory)
        let before = store.entries
        hidden.site = try ProtectedSite.prepare(config.password, store: &store, environment: environment)
        if albums {
            let (bytes, created) = try SiteSecretFile.load(stateDirectory: config.stateDirectory)
            if let created { progress(.warning(SiteSecretFile.createdNotice(created))) }
            let secret = SiteSecret(bytes: bytes)
            let (protected, folders) = try ProtectedAlbums.apply(
                &manifest, secret: secret, store: &store, environment: environment)
            let tokens = UnlistedAlbums.apply(&manifest, secret: secret)
            hidden.tokens = tokens.merging(protected.map { ($0.path, $0.token) }) { first, _ in first }
            hidden.folders = folders
            hidden.protected = protected
        }
        if store.entries != before { try store.save() }
        if hidden.site?.rekeyed == true { progress(.step(ProtectedAlbums.rekeyedNotice(album: nil))) }
        for album in hidden.protected where album.rekeyed {
            progress(.step(ProtectedAlbums.rekeyedNotice(album: album.path)))
        }
        return hidden
    }

    /// The first page of each unlisted and protected album: no page of the site links to them.
    func hiddenLinks(_ plan: SitePlan, _ hidden: HiddenAlbums) -> [HiddenLink] {
        let protected = Set(hidden.protected.map(\.path))
        return plan.sections.albums.albums.filter { hidden.tokens[$0.path] != nil }.map {
            HiddenLink(album: $0.path, page: $0.path(page: 1), protected: protected.contains($0.path))
        }
    }

    /// Tells the person building the link to each unlisted and protected album, to send to those
    /// who may see it. `published` gives a page's path as published: under a site password an
    /// album's page is at an opaque path (`SitePathMap`), known once the site is sealed.
    func announce(_ links: [HiddenLink], renderer: SiteRenderer, published: (String) -> String = { $0 }) {
        for link in links {
            let page = published(link.page)
            progress(
                .step(
                    "\(link.protected ? "protected" : "unlisted") album \(link.album): "
                        + (renderer.absoluteURL(page) ?? page)))
        }
    }
}

/// Where an unlisted or protected album's first page is, by the site path it was rendered at.
struct HiddenLink: Sendable {
    var album: String
    var page: String
    var protected: Bool
}
