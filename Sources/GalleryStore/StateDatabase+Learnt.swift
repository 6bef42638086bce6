import Foundation
import GRDB
import GalleryModel

/// What builds learn about originals and thumbnails: header facts by content hash and placeholders by
/// thumbnail key. Both are keyed by content, so a build writes them as it learns them, in small
/// transactions of their own, instead of holding them until its final one: a row is true whether or
/// not the build that wrote it goes on to publish.
extension StateDatabase {
    /// Writes facts and placeholders in one transaction, on the database's own queue while the
    /// calling task is suspended.
    func saveLearnt(
        originals: [(hash: Digest, facts: OriginalFacts)], placeholders: [(key: Digest, value: Placeholder)]
    ) async throws {
        guard !originals.isEmpty || !placeholders.isEmpty else { return }
        try await queue.write { db in try Self.write(originals: originals, placeholders: placeholders, in: db) }
    }

    /// The header facts of the original with this content hash, if a build learnt them. Read per
    /// photo when it is planned rather than loaded with the snapshot: they are the largest part of
    /// a row, and the gallery items hold what the pages need of them.
    /// One statement, so it needs no transaction of its own (`unsafeRead`): a read transaction
    /// around each of 100,000 point queries made a no-op build three times slower.
    package func facts(_ hash: Digest) throws -> OriginalFacts? {
        try queue.unsafeRead { db in
            let statement = try db.cachedStatement(sql: "SELECT \(Self.factColumns) FROM original WHERE hash = ?")
            return try Row.fetchOne(statement, arguments: [hash.hex]).flatMap(Self.facts)
        }
    }

    /// The facts of many originals in one query (those the state has; at most a few hundred hashes),
    /// read on the database's own queue while the calling task is suspended.
    package func facts(_ hashes: [Digest]) async throws -> [(Digest, OriginalFacts)] {
        guard !hashes.isEmpty else { return [] }
        return try await queue.read { db in
            let marks = Array(repeating: "?", count: hashes.count).joined(separator: ",")
            let rows = try Row.fetchCursor(
                db, sql: "SELECT \(Self.factColumns), hash FROM original WHERE hash IN (\(marks))",
                arguments: StatementArguments(hashes.map(\.hex)))
            var found: [(Digest, OriginalFacts)] = []
            while let row = try rows.next() {
                if let hash = try Self.digest(row, 22), let facts = Self.facts(row) { found.append((hash, facts)) }
            }
            return found
        }
    }

    /// The columns of the `original` table that `facts(_: Row)` reads, in its order (the hash after them is column 22).
    private static let factColumns = """
        format, width, height, orientation, make, model, lens, focalLength, aperture, exposureTime, \
        iso, takenAt, latitude, longitude, embedded, previewWidth, previewHeight, video, motionClip, \
        gainMapWidth, gainMapHeight, motionProblem
        """

    /// A row of the `original` table as facts; nil for a row this version cannot read, which makes
    /// the original be read again.
    private static func facts(_ row: Row) -> OriginalFacts? {
        guard let format = ImageFormat(rawValue: row[0]) else { return nil }
        var exif = ExifInfo()
        exif.orientation = row[3]
        exif.camera = CameraInfo(
            make: row[4], model: row[5], lens: row[6], focalLength: row[7], aperture: row[8],
            exposureTime: row[9], iso: row[10])
        exif.takenAt = row[11]
        if let latitude: Double = row[12], let longitude: Double = row[13] {
            exif.location = GeoPoint(latitude: latitude, longitude: longitude)
        }
        // JSON, or '' for none (most rows: no decoder runs). Unreadable JSON, which this code never
        // writes, counts as unknown facts.
        let json: String = row[14]
        guard
            let embedded = json.isEmpty
                ? EmbeddedMetadata()
                : (try? JSONDecoder().decode(EmbeddedMetadata.self, from: Data(json.utf8)))
        else { return nil }
        var facts = OriginalFacts(
            format: format, size: PixelSize(width: row[1], height: row[2]), exif: exif, embedded: embedded)
        if let width: Int = row[15], let height: Int = row[16] {
            facts.preview = PixelSize(width: width, height: height)
        }
        // A video's container facts as JSON, or NULL for a still.
        if let video: String = row[17] {
            guard let info = try? JSONDecoder().decode(VideoInfo.self, from: Data(video.utf8)) else { return nil }
            facts.video = info
        }
        facts.motionClip = row[18]
        if let width: Int = row[19], let height: Int = row[20] {
            facts.gainMap = PixelSize(width: width, height: height)
        }
        // A problem this version does not name reads as none: the photo is a still, as it was.
        facts.motionProblem = (row[21] as String?).flatMap(MotionPhotoProblem.init(rawValue:))
        return facts
    }

    /// A placeholder without its data URI (`placeholderURI`), as the snapshot holds them.
    package func placeholder(_ key: Digest) throws -> Placeholder? {
        try queue.unsafeRead { db in
            let statement = try db.cachedStatement(sql: "SELECT averageColor, warnings FROM placeholder WHERE key = ?")
            return try Row.fetchOne(statement, arguments: [key.hex]).map {
                Self.placeholder(averageColor: $0[0], warnings: $0[1])
            }
        }
    }

    /// A placeholder row without its data URI; `warnings` is one warning a line, '' for none
    /// (as `write(originals:placeholders:in:)` stores them).
    package static func placeholder(averageColor: String, warnings: String) -> Placeholder {
        Placeholder(
            averageColor: averageColor, dataURI: "",
            warnings: warnings.isEmpty ? [] : warnings.components(separatedBy: "\n"))
    }

    /// A placeholder's `data:` URI, or nil when the state has none under `key`.
    package func placeholderURI(_ key: Digest) throws -> String? {
        try queue.unsafeRead { db in
            try String.fetchOne(
                db.cachedStatement(sql: "SELECT dataURI FROM placeholder WHERE key = ?"), arguments: [key.hex])
        }
    }

    /// The cache's learnt files that the last saved build read or knew, by name (`SharedLearnt.stamps`);
    /// empty when there were none or the record is unreadable (every file is then read again).
    package func consumedLearntFiles() async throws -> [String: String] {
        let text = try await queue.read { db in
            try String.fetchOne(
                db, sql: "SELECT value FROM setting WHERE name = ?", arguments: [Self.learntFilesSetting])
        }
        guard let text else { return [:] }
        return (try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))) ?? [:]
    }

    static let learntFilesSetting = "learntFiles"

    package static func write(learntFiles: [String: String], in db: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        try db.execute(
            sql: "INSERT OR REPLACE INTO setting (name, value) VALUES (?, ?)",
            arguments: [learntFilesSetting, String(decoding: try encoder.encode(learntFiles), as: UTF8.self)])
    }

    package static func write(
        originals: [(hash: Digest, facts: OriginalFacts)], placeholders: [(key: Digest, value: Placeholder)],
        in db: Database
    ) throws {
        let original = try db.cachedStatement(
            sql: """
                INSERT OR REPLACE INTO original (hash, format, width, height, orientation, make, model, lens, focalLength,
                    aperture, exposureTime, iso, takenAt, latitude, longitude, embedded, previewWidth, previewHeight, video, motionClip,
                    gainMapWidth, gainMapHeight, motionProblem)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        for (hash, facts) in originals {
            let camera = facts.exif.camera
            let embedded =
                facts.embedded.isEmpty ? "" : String(decoding: try encoder.encode(facts.embedded), as: UTF8.self)
            let video = try facts.video.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
            try original.execute(arguments: [
                hash.hex, facts.format.rawValue, facts.size.width, facts.size.height,
                facts.exif.orientation, camera.make, camera.model, camera.lens,
                camera.focalLength, camera.aperture, camera.exposureTime, camera.iso,
                facts.exif.takenAt, facts.exif.location?.latitude, facts.exif.location?.longitude,
                embedded, facts.preview?.width, facts.preview?.height, video, facts.motionClip,
                facts.gainMap?.width, facts.gainMap?.height, facts.motionProblem?.rawValue
            ])
        }
        let placeholder = try db.cachedStatement(
            sql: "INSERT OR REPLACE INTO placeholder (key, averageColor, dataURI, warnings) VALUES (?, ?, ?, ?)")
        for (key, value) in placeholders {
            // A warning is one line: the decoder's message, with any line breaks made spaces.
            let warnings = value.warnings.map { $0.replacingOccurrences(of: "\n", with: " ") }.joined(separator: "\n")
            try placeholder.execute(arguments: [key.hex, value.averageColor, value.dataURI, warnings])
        }
    }
}
