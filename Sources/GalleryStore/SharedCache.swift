import Foundation
import GalleryConfig
import GalleryKeys
import GalleryModel

/// The cache folder (`cache` in the config, `build --cache DIR`; the state folder's `cache/` by
/// default): derivatives and published originals in `images/`, pages in `pages/`, downloads in
/// `originals/`, and in `learnt/` one file per images-only build saying what it learnt.
///
/// Images-only builds on other machines (`build --images-only --shard K/N`) fill `images/` and
/// write `learnt/shard-K-of-N.json`; a plain build over the same cache reads every learnt file, so
/// it knows each original's content hash, header facts and placeholder, and the record of each
/// derivative, and decodes nothing that a shard already made. A lost or stale learnt file only
/// costs time: every fact in it is checked the way the state's own are.
package struct SharedCache: Sendable {
    package let folder: URL
    package var learntFolder: URL { folder.appendingPathComponent("learnt") }

    /// Reads the learnt files of the cache, oldest first, so the newest file's facts win. A file that
    /// cannot be read is reported through `warn` and skipped.
    /// - Parameters:
    ///   - root: Turns the files' relative paths into this machine's paths.
    ///   - consumed: Stamps of the files an earlier build of this state read and kept all it needed
    ///     of (`SharedLearnt.stamps`); a file with the same stamp is not read again.
    package func load(root: SourceRoot, consumed: [String: String] = [:], warn: (String) -> Void) -> SharedLearnt {
        var learnt = SharedLearnt()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: learntFolder.path)) ?? []
        let files = names.filter { $0.hasSuffix(".json") }.compactMap {
            name -> (name: String, path: String, stamp: FileStamp)? in
            let path = learntFolder.appendingPathComponent(name).path
            return FileStamp.of(path).map { (name, path, $0) }
        }.sorted { ($0.stamp.modified, $0.path) < ($1.stamp.modified, $1.path) }
        let decoder = LearntFile.decoder
        for (name, path, stamp) in files {
            let mark = Self.mark(stamp)
            if consumed[name] == mark {
                learnt.stamps[name] = mark
                learnt.unchanged += 1
                continue
            }
            guard let data = FileManager.default.contents(atPath: path),
                let file = try? decoder.decode(LearntFile.self, from: data)
            else {
                warn("\(path): not a learnt file this galleryssg can read; its photos are processed again")
                continue
            }
            guard file.version == LearntFile.currentVersion else {
                warn(
                    "\(path): learnt file version \(file.version), expected \(LearntFile.currentVersion); its photos are processed again"
                )
                continue
            }
            learnt.add(file, root: root)
            learnt.stamps[name] = mark
        }
        return learnt
    }

    /// What tells a learnt file from its next version: size, modification time (ns) and inode
    /// (a shard that runs again writes a new file and renames it over the old one).
    package static func mark(_ stamp: FileStamp) -> String {
        "\(stamp.size) \(stamp.modified) \(stamp.identity.inode)"
    }

    /// Writes what an images-only build learnt of its slice to `learnt/<shard>.json`, atomically:
    /// each published photo's original, its header facts, its placeholder and the record of every
    /// file it links, sorted, so the same work gives the same file.
    /// - Returns: The file written.
    /// - Throws: `StoreError` naming the file.
    package func write(_ shard: Shard, rows: [PhotoState], state: BuildState, root: SourceRoot) throws -> URL {
        var file = LearntFile(shard: shard.description)
        var seen: Set<String> = []
        for row in rows {
            let location = root.key(row.location)
            guard seen.insert(location).inserted else { continue }
            file.originals.append(
                LearntFile.Original(
                    location: location, contentHash: row.contentHash, etag: row.etag,
                    lastModified: row.lastModified, size: row.fileSize,
                    modified: row.fileModified))
            file.facts[row.contentHash] = state.facts(row.contentHash)?.value
            file.placeholders[row.thumbnailKey] = state.placeholder(row.thumbnailKey)?.value
            for key in row.blobKeys {
                guard let record = state.images.record(key) else { continue }
                file.blobs[key] = BlobStamp(size: record.size, modified: record.modified, sha256: record.sha256)
            }
        }
        file.originals.sort { $0.location < $1.location }
        let target = learntFolder.appendingPathComponent(shard.learntFileName)
        do {
            try FileManager.default.createDirectory(at: learntFolder, withIntermediateDirectories: true)
            try AtomicFile.write(try LearntFile.encoder.encode(file), to: target.path)
        } catch {
            throw StoreError.writing(target.path, error)
        }
        return target
    }

    package init(folder: URL) {
        self.folder = folder
    }
}

/// What one images-only build learnt, as it is stored in the cache's `learnt/` folder (JSON).
package struct LearntFile: Codable {
    /// 2: JPEG facts say whether a gain map follows (`OriginalFacts.gainMap`).
    package static let currentVersion = 2
    package var version = Self.currentVersion
    /// The slice it built, `K/N`.
    package var shard: String
    /// The originals it processed, sorted by location.
    package var originals: [Original] = []
    /// Header facts by content hash.
    package var facts: [Digest: OriginalFacts] = [:]
    /// Placeholders by thumbnail key.
    package var placeholders: [Digest: Placeholder] = [:]
    /// The derivatives and published originals of its photos, by key.
    package var blobs: [Digest: BlobStamp] = [:]

    /// One original and what vouches for its content hash.
    package struct Original: Codable {
        /// The location as `SourceRoot.key` writes it: relative to the source for a local file.
        package var location: String
        package var contentHash: Digest
        package var etag: String?
        package var lastModified: String?
        /// A local file's size and modification time (ns) when it was hashed.
        package var size: Int?
        package var modified: Int?
    }

    /// Sorted keys and no spaces, so equal contents give equal files; non-finite numbers (which no
    /// reader should ever produce) are written as strings rather than failing the build.
    package static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.nonConformingFloatEncodingStrategy = .convertToString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    package static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(
            positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}

/// The learnt files of a cache, merged, with local paths made this machine's own.
package struct SharedLearnt: Sendable {
    /// Originals by location, as `ImageLocation.description` writes it here.
    package var originals: [String: KnownOriginal] = [:]
    package var facts: [Digest: OriginalFacts] = [:]
    package var placeholders: [Digest: Placeholder] = [:]
    /// Records of cached images, by key.
    package var blobs: [Digest: BlobStamp] = [:]
    /// Learnt files read.
    package var files: Int = 0
    /// Learnt files not read because an earlier build of this state read them as they are.
    package var unchanged: Int = 0
    /// Every learnt file read or known, by name: what the state records once this build is saved.
    package var stamps: [String: String] = [:]

    package mutating func add(_ file: LearntFile, root: SourceRoot) {
        files += 1
        for original in file.originals {
            let location = root.location(original.location)
            originals[location] = KnownOriginal(
                location: location, contentHash: original.contentHash, etag: original.etag,
                lastModified: original.lastModified, fileSize: original.size,
                fileModified: original.modified)
        }
        facts.merge(file.facts) { _, newer in newer }
        placeholders.merge(file.placeholders) { _, newer in newer }
        blobs.merge(file.blobs) { _, newer in newer }
    }

    package init() {}
}

/// What a build knows of an original before reading it: its content hash, and what vouches for it
/// (a local file's size and modification time, a download's URL and validators).
package struct KnownOriginal: Sendable, Equatable {
    /// The file path or URL, as `ImageLocation.description` writes it.
    package var location: String
    package var contentHash: Digest
    package var etag: String?
    package var lastModified: String?
    package var fileSize: Int?
    package var fileModified: Int?
}

extension PhotoState {
    /// The original as this row knows it.
    var knownOriginal: KnownOriginal {
        KnownOriginal(
            location: location, contentHash: contentHash, etag: etag, lastModified: lastModified,
            fileSize: fileSize, fileModified: fileModified)
    }
}

/// Where a photo's original is, written the same way on every machine: a local file's path
/// relative to the source (the library folder, or the manifest's folder), a download's URL.
package struct SourceRoot: Sendable {
    /// The folder local originals are relative to; nil for sources that only download.
    package let folder: String?

    package init(_ source: SourceConfig) {
        switch source {
        case .folder(let url): folder = url.standardizedFileURL.path
        case .manifestFile(let file): folder = file.deletingLastPathComponent().standardizedFileURL.path
        case .manifestURL, .flickr, .fiveHundredPx, .parse, .immich: folder = nil
        }
    }

    /// The key of a location as `ImageLocation.description` writes it: a path below the source
    /// made relative, anything else (a URL, a path elsewhere) as it is.
    package func key(_ location: String) -> String {
        guard let folder, location.hasPrefix(folder + "/") else { return location }
        return String(location.dropFirst(folder.count + 1))
    }

    /// The location a key stands for on this machine.
    package func location(_ key: String) -> String {
        guard let folder, !key.hasPrefix("/"), !ImageLocation.isRemote(stored: key) else { return key }
        return folder + "/" + key
    }
}
