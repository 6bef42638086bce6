import Foundation
import GalleryConfig
import GalleryModel
import GalleryProviders

/// The manifest decode galleryssg made before it read manifests entry by entry: one
/// `JSONDecoder` decode of the whole document, after a strict syntax check of all of it (which
/// refuses the trailing commas, leading zeros and raw control characters `JSONDecoder` takes).
/// Kept here, and only here, as the reference `ManifestDocument` must agree with on every document
/// (ManifestEquivalenceTests).
struct WholeManifestDecode: Decodable {
    static let mapperKey = CodingUserInfoKey(rawValue: "galleryssg.manifestMapper")!
    let manifest: Manifest

    /// The JSON is valid but not shaped like a manifest.
    struct ShapeError: Error {
        let reason: String
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// What the whole-document decode made of `data`.
    static func outcome(_ data: Data, mapper: ManifestEntryMapper) -> ManifestOutcome {
        let decoder = JSONDecoder()
        decoder.userInfo[mapperKey] = mapper
        var text = ManifestBytes.data(data)
        guard (try? text.convertToUTF8()) != nil, let utf8 = try? text.rest(),
            (try? JSONSyntax.check(Data(utf8))) != nil
        else {
            return ManifestOutcome(failure: ManifestOutcome.notJSON)
        }
        do {
            return ManifestOutcome(try decoder.decode(Self.self, from: data).manifest)
        } catch let error as ShapeError {
            return ManifestOutcome(failure: error.reason)
        } catch {
            return ManifestOutcome(failure: ManifestOutcome.notJSON)
        }
    }

    init(from decoder: any Decoder) throws {
        guard let mapper = decoder.userInfo[Self.mapperKey] as? ManifestEntryMapper else {
            preconditionFailure("WholeManifestDecode needs a ManifestEntryMapper in the decoder's userInfo")
        }
        var entries: any UnkeyedDecodingContainer
        var albums: JSONValue?
        if let array = try? decoder.unkeyedContainer() {
            entries = array
        } else if let object = try? decoder.container(keyedBy: Key.self) {
            guard let array = try? object.nestedUnkeyedContainer(forKey: Key(stringValue: "photos")) else {
                throw ShapeError(reason: "expected a \"photos\" array at the top level")
            }
            entries = array
            albums = try object.decodeIfPresent(JSONValue.self, forKey: Key(stringValue: "albums"))
        } else {
            let document = try decoder.singleValueContainer().decode(JSONValue.self)
            throw ShapeError(reason: "expected {\"photos\": [ … ]}, got \(document.kind)")
        }
        var collector = ManifestEntryMapper.Collector(mapper: mapper)
        while !entries.isAtEnd {
            if let object = try? entries.decode([String: JSONValue].self) {
                collector.add(.object(object))
            } else {
                collector.add(try entries.decode(JSONValue.self))
            }
        }
        var manifest = collector.manifest
        if let albums {
            let settings = ManifestEntryMapper.albums(albums)
            manifest.albums = settings.albums
            manifest.issues += settings.issues
        }
        self.manifest = manifest
    }
}

/// What reading a manifest document gave: its photos, issues and album settings, or why it was refused.
struct ManifestOutcome: Equatable, CustomStringConvertible {
    /// The reason both readers give for a document that is not JSON.
    static let notJSON = "not valid JSON"

    var photos: [Photo] = []
    var issues: [ManifestIssue] = []
    var albums: [String: AlbumInfo] = [:]
    var failure: String?

    init(_ manifest: Manifest) {
        (photos, issues, albums) = (manifest.photos, manifest.issues, manifest.albums)
    }

    init(failure: String) {
        self.failure = failure
    }

    /// What `ManifestDocument` makes of `data`, read `chunkSize` bytes at a time.
    static func entryByEntry(_ data: Data, mapper: ManifestEntryMapper, chunkSize: Int = ManifestBytes.chunkSize)
        -> Self
    {
        do {
            return Self(try ManifestDocument.read(.data(data, chunkSize: chunkSize), mapper: mapper))
        } catch ManifestDocument.Failure.shape(let reason) {
            return Self(failure: reason)
        } catch {
            return Self(failure: notJSON)
        }
    }

    var description: String {
        failure.map { "refused: \($0)" }
            ?? "\(photos.count) photos \(photos.map(\.id)), issues \(issues.map { "\($0.item): \($0.reason)" }), albums \(albums.keys.sorted())"
    }
}
