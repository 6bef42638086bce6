import Foundation
import GalleryModel
import Mustache

/// What a protected album's pages show before the password: the shell page that asks for it
/// (`protected.mustache`) and unlocks the album with `static/protect.js`, whose service worker
/// (`SiteLayout.serviceWorker`) then decrypts the album's pages and files as the browser asks for them.
struct ProtectedShell: Encodable, Sendable, MustacheParent {
    /// The album's key file (`KeyFile.json()`): public, it wraps the content key with the password.
    var keyFile: String
    /// The folder of the album's pages, `albums/…/TOKEN/`, from the site root.
    var folder: String
    /// The prefix of its photos' folders, `photos/TOKEN-`.
    var photos: String
    /// The service worker's URL, from the page.
    var worker: String
    /// For the whole site's shell: the paths its key does not open, as a JSON array (the theme's
    /// files, the protected albums' folders); empty for an album's.
    var except: String

    func child(named name: String) -> Any? {
        switch name {
        case "keyFile": keyFile
        case "folder": folder
        case "photos": photos
        case "worker": worker
        case "except": except
        case "site": !except.isEmpty
        default: nil
        }
    }
}

struct ProtectedContext: TemplateContext {
    var site: SiteContext
    var page: PageContext
    var vault: ProtectedShell

    func child(named name: String) -> Any? {
        switch name {
        case "site": site
        case "page": page
        case "vault": vault
        default: nil
        }
    }
}

extension SiteRenderer {
    /// The shell published at a protected page's path: the same for every page of the album but for
    /// its depth, and nothing on it names the album or its photos.
    package func protectedShell(path: String, keyFile: String, folder: String, photos: String, except: String = "")
        throws -> Data
    {
        var page = pageContext(
            path: path, title: "\(strings.text(except.isEmpty ? "protectedTitle" : "protectedSiteTitle")) · \(title)",
            description: nil,
            sections: SiteRenderer.Sections([], sources: [], albumInfos: [:], sort: sort))
        page.noindex = true
        page.canonical = nil
        let shell = ProtectedShell(
            keyFile: keyFile, folder: folder, photos: photos, worker: page.root + SiteLayout.serviceWorker,
            except: except)
        return try render(
            PageModel(
                path: path, template: "protected", context: ProtectedContext(site: site, page: page, vault: shell)))
    }
}
