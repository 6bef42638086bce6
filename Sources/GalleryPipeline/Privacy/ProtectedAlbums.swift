import Foundation
import GalleryModel
import GalleryProviders
import GalleryStore
import GalleryVault

/// Albums with a `password` (or `passwordEnv`), and every album below them: built like unlisted
/// albums, then published encrypted (`AlbumSealer`).
///
/// Before any step sees them, their photos get ids made of tokens (`albumToken-photoToken`, so one
/// prefix names every photo folder of the album) and their albums folder names made of tokens, so no
/// published path carries a name or an id. Each album has a content key kept in the state
/// (`AlbumKeyStore`) and a key file, published in its pages, that wraps the key with the password.
package struct ProtectedAlbum: Sendable {
    /// The album's cleaned path, as sources write it.
    package var path: String
    /// Its folder's name, and the prefix of its photos' ids.
    package var token: String
    package var key: ContentKey
    package var keyFile: KeyFile
    /// Whether its password changed since the last build, so that it has a new key (`ProtectedAlbums.keys`).
    package var rekeyed = false

    /// The prefix of its photos' folders, `photos/TOKEN-`.
    var photoPrefix: String { SiteLayout.photoFolder(id: token + "-") }
}

package enum ProtectedAlbums {
    /// The cleaned paths of the albums that set a password, with the setting.
    package static func marked(_ albums: [String: AlbumInfo]) -> [String: AlbumInfo] {
        var marked: [String: AlbumInfo] = [:]
        for (path, info) in albums where info.isProtected {
            if let clean = AlbumPath.normalized(path) { marked[clean] = info }
        }
        return marked
    }

    /// The album's password, from the setting or the environment.
    /// - Throws: `ProtectedAlbumError` when it is missing or empty: the album is never published in the clear.
    package static func password(of path: String, _ info: AlbumInfo, environment: [String: String]) throws -> String {
        if let password = info.password {
            guard !password.isEmpty else { throw ProtectedAlbumError.emptyPassword(album: path) }
            return password
        }
        let name = info.passwordEnv ?? ""
        guard EnvironmentName.isValid(name) else { throw ProtectedAlbumError.badEnvironmentName(album: path) }
        guard let password = environment[name], !password.isEmpty else {
            throw ProtectedAlbumError.unsetEnvironment(album: path, name: name)
        }
        return password
    }

    /// Works out each protected album's key and key file (new, kept, or new for a new password),
    /// renames its photos and its albums' folders, and marks its photos.
    /// - Returns: The protected albums, and the folder name of every album inside them by path.
    package static func apply(
        _ manifest: inout Manifest, secret: SiteSecret, store: inout AlbumKeyStore,
        environment: [String: String],
        parameters: KDFParameters = .standard
    ) throws -> (albums: [ProtectedAlbum], folders: [String: String]) {
        var settings = marked(manifest.albums)
        // A build from the state (`--offline`) has no album settings: photos marked protected keep their key.
        for path in Set(manifest.photos.compactMap(\.unlistedIn))
        where settings[path] == nil && store.entries[path] != nil {
            settings[path] = AlbumInfo()
        }
        guard !settings.isEmpty else { return ([], [:]) }
        for path in settings.keys {
            if let outer = settings.keys.first(where: { path.hasPrefix($0 + "/") }) {
                throw ProtectedAlbumError.nested(album: path, inside: outer)
            }
        }
        var albums: [String: ProtectedAlbum] = [:]
        for (path, info) in settings.sorted(by: { $0.key < $1.key }) {
            let password = info.isProtected ? try password(of: path, info, environment: environment) : nil
            guard
                let (key, keyFile, rekeyed) = try keys(
                    for: path, password: password, store: &store, parameters: parameters)
            else { continue }
            albums[path] = ProtectedAlbum(
                path: path, token: secret.token("album", path), key: key, keyFile: keyFile, rekeyed: rekeyed)
        }
        var renamed: [String: String] = [:]
        var folders: [String: String] = [:]
        for index in manifest.photos.indices {
            let parts = AlbumPath.components(manifest.photos[index].album)
            guard let depth = parts.indices.first(where: { albums[parts[...$0].joined(separator: "/")] != nil }) else {
                continue
            }
            let album = albums[parts[...depth].joined(separator: "/")]!
            for level in depth..<parts.count {
                let path = parts[...level].joined(separator: "/")
                if folders[path] == nil { folders[path] = level == depth ? album.token : secret.token("album", path) }
            }
            guard manifest.photos[index].unlistedIn == nil else { continue }
            let id = manifest.photos[index].id
            let token = album.token + "-" + secret.token("photo", id)
            renamed[id] = token
            manifest.photos[index].id = token
            manifest.photos[index].unlistedIn = album.path
        }
        manifest.renameCovers(renamed)
        return (albums.values.sorted { $0.path < $1.path }, folders)
    }
}

extension ProtectedAlbums {
    /// The content key kept in the state under `name` (an album's path, or `ProtectedSite.storeName`)
    /// with its key file: kept as it is for the same password, made new when none is kept, and made
    /// new too when the password changed. A password is changed to shut out whoever had the old one,
    /// and whoever opened the album once may have kept its key (a reader's "remember", a saved copy
    /// of the key file): re-wrapping the same key would let the old password and the old key open
    /// every file of the new build. With a new key every file of the album is encrypted again,
    /// under new names. Without a password (an `--offline` build) only a kept key is used.
    /// - Returns: nil when there is neither a password nor a kept key; `rekeyed` when a kept key
    ///   was replaced because the password changed.
    static func keys(
        for name: String, password: String?, store: inout AlbumKeyStore,
        parameters: KDFParameters
    ) throws -> (key: ContentKey, keyFile: KeyFile, rekeyed: Bool)? {
        let kept = try store.entries[name].map {
            (
                try ContentKey(raw: Array(Data(base64Encoded: $0.key) ?? Data())),
                try KeyFile(json: Data($0.keyFile.utf8))
            )
        }
        var (key, keyFile) = kept ?? (ContentKey.random(), nil)
        var rekeyed = false
        if let password, let current = keyFile, (try? current.unwrap(password: password)) != key {
            (key, keyFile, rekeyed) = (ContentKey.random(), nil, true)
        }
        if let password, keyFile == nil {
            keyFile = try KeyFile.wrap(key, password: password, parameters: parameters)
        }
        guard let keyFile else { return nil }
        let entry = AlbumKeyStore.Entry(
            key: Data(key.raw).base64EncodedString(), keyFile: String(decoding: keyFile.json(), as: UTF8.self))
        if store.entries[name] != entry { store.entries[name] = entry }
        return (key, keyFile, rekeyed)
    }

    /// What a build says when a changed password gave an album (nil: the whole site) a new key.
    package static func rekeyedNotice(album: String?) -> String {
        "\(album.map { "album \($0)" } ?? "the site"): the password changed, so it has a new key and every file of it is "
            + "encrypted again under new names; the old password, and keys readers kept, open nothing of this build"
    }
}

/// Why a protected album could not be built; the build stops rather than publish it in the clear.
package enum ProtectedAlbumError: Error, Equatable, CustomStringConvertible {
    case emptyPassword(album: String)
    case badEnvironmentName(album: String)
    case unsetEnvironment(album: String, name: String)
    case nested(album: String, inside: String)
    case siteUnsetEnvironment(name: String)

    package var description: String {
        switch self {
        case .emptyPassword(let album):
            "album \(album): its password is empty; give it a password (better: passwordEnv, the name of an environment variable holding it)"
        case .badEnvironmentName(let album):
            "album \(album): its passwordEnv is not an environment variable name (letters, digits and _); fix it in the album's "
                + "index.md or the manifest's albums"
        case .unsetEnvironment(let album, let name):
            "album \(album): the environment variable \(name) that holds its password is not set or empty; export \(name)=… "
                + "before building (the album is never published unencrypted)"
        case .nested(let album, let outer):
            "album \(album) sets a password inside the protected album \(outer); everything below a protected album is "
                + "encrypted with its password already, so remove the inner one"
        case .siteUnsetEnvironment(let name):
            "the environment variable \(name) that holds the site's password (passwordEnv in the config) is not set or empty; "
                + "export \(name)=… before building (the site is never published unencrypted)"
        }
    }
}
