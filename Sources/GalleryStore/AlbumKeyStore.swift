import Foundation
import GalleryKeys

/// Protected albums' content keys and published key files, by album path, in `album-keys.json` in
/// the state folder (readable by its owner only). Never in the output: a key here decrypts the
/// album. Keeping the key from build to build is what keeps an unchanged album's ciphertext the
/// same; `galleryssg rekey ALBUM` removes an album's entry, so the next build makes a new key.
package struct AlbumKeyStore: Sendable {
    package struct Entry: Sendable, Equatable, Codable {
        /// The content key's 32 bytes, base64.
        package var key: String
        /// The key file published with the album (`KeyFile.json()`), as text.
        package var keyFile: String

        package init(key: String, keyFile: String) {
            self.key = key
            self.keyFile = keyFile
        }
    }

    package static let fileName = "album-keys.json"
    package let file: URL
    package var entries: [String: Entry]

    package init(file: URL, entries: [String: Entry]) {
        self.file = file
        self.entries = entries
    }

    /// Reads the store of a state folder (empty when there is none yet).
    /// - Throws: `AlbumKeyStoreError.unreadable` for a file that cannot be read or parsed.
    package static func load(stateDirectory: URL) throws -> AlbumKeyStore {
        let file = stateDirectory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: file.path) else { return AlbumKeyStore(file: file, entries: [:]) }
        do {
            // An earlier galleryssg's 0644, or a copied file's mode, narrowed.
            try PrivateFolder.restrict(file.path, to: PrivateFolder.fileMode)
            let entries = try JSONDecoder().decode([String: Entry].self, from: Data(contentsOf: file))
            return AlbumKeyStore(file: file, entries: entries)
        } catch {
            throw AlbumKeyStoreError.unreadable(path: file.path, reason: "\(error)")
        }
    }

    /// Writes the store whole, readable by its owner only.
    package func save() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            try PrivateFolder.make(file.deletingLastPathComponent())
            try AtomicFile.write(try encoder.encode(entries), to: file.path, mode: PrivateFolder.fileMode)
        } catch {
            throw AlbumKeyStoreError.unwritable(path: file.path, reason: "\(error)")
        }
    }
}

enum AlbumKeyStoreError: Error, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)

    var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "protected albums' keys \(path) could not be read (\(reason)); restore it from a backup, or move it away "
                + "to encrypt every protected album again under new keys"
        case .unwritable(let path, let reason):
            "protected albums' keys \(path) could not be written (\(reason)); check the state folder's space and permissions"
        }
    }
}
