import Foundation
import GalleryConfig
import GalleryStore
import GalleryVault

/// A site with a password (`password` or `passwordEnv` in the config): every page and file but the
/// theme's own is published encrypted with one content key (`SiteSealer`), kept in the state with
/// the protected albums' keys under a name no album path can take.
package struct ProtectedSite: Sendable {
    /// The site's entry in `AlbumKeyStore`: album paths never start with a slash.
    package static let storeName = "/"
    package var key: ContentKey
    package var keyFile: KeyFile
    /// Whether its password changed since the last build, so that it has a new key.
    package var rekeyed = false

    /// The site's key and key file, kept, or new (the first time, or for a new password:
    /// `ProtectedAlbums.keys`); nil for a public site.
    /// - Throws: `ProtectedAlbumError.siteUnsetEnvironment` when `passwordEnv` names an unset or empty variable.
    static func prepare(
        _ setting: SitePassword?, store: inout AlbumKeyStore, environment: [String: String],
        parameters: KDFParameters = .standard
    ) throws -> ProtectedSite? {
        guard let setting else { return nil }
        let password: String
        switch setting {
        case .literal(let text): password = text
        case .environment(let name):
            guard let text = environment[name], !text.isEmpty else {
                throw ProtectedAlbumError.siteUnsetEnvironment(name: name)
            }
            password = text
        }
        guard
            let (key, keyFile, rekeyed) = try ProtectedAlbums.keys(
                for: storeName, password: password, store: &store,
                parameters: parameters)
        else { return nil }
        return ProtectedSite(key: key, keyFile: keyFile, rekeyed: rekeyed)
    }
}
