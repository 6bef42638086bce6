import Foundation
import GalleryModel

/// Collects mapped photos in order, de-duplicating by id and stopping at `source.limit`.
package struct ManifestCollector {
    package let limit: Int?
    package private(set) var manifest = Manifest(photos: [])
    private var seen: Set<String> = []

    package init(limit: Int?) {
        self.limit = limit
    }

    var remaining: Int? { limit.map { max(0, $0 - manifest.photos.count) } }
    package var isFull: Bool { remaining == 0 }

    /// Adds a mapped photo, or the reason it could not be mapped; repeats of an id are dropped silently,
    /// since feeds that page over a changing list legitimately repeat rows.
    package mutating func add(_ result: Result<Photo, Error>, position: String) {
        guard !isFull else { return }
        switch result {
        case .success(let photo):
            if seen.insert(photo.id).inserted { manifest.photos.append(photo) }
        case .failure(let error as MappingError):
            manifest.issues.append(
                ManifestIssue(item: error.id ?? position, location: error.location, reason: error.reason))
        case .failure(let error):
            manifest.issues.append(ManifestIssue(item: position, location: nil, reason: "\(error)"))
        }
    }
}

/// One page of an API's photo list.
package struct PhotoPage {
    /// The page's rows, each mapped to a photo or to the reason it could not be.
    package var rows: [Result<Photo, Error>]
    /// Whether the API says no page follows.
    var isLast: Bool
    /// How a row without an id is named in the report: `page 2 row 5`, `results[105]`.
    package var position: (_ index: Int) -> String
}

extension ManifestCollector {
    /// Reads an API's pages in order until one is empty or the last, or `limit` photos are in: the
    /// paging loop of every API provider.
    /// - Parameter fetch: Reads page `page` (1-based), whose first row is row `offset` of the list.
    package static func collect(limit: Int?, _ fetch: (_ page: Int, _ offset: Int) async throws -> PhotoPage)
        async throws -> Manifest
    {
        var collector = ManifestCollector(limit: limit)
        var page = 1
        var offset = 0
        while !collector.isFull {
            let batch = try await fetch(page, offset)
            for (index, row) in batch.rows.enumerated() { collector.add(row, position: batch.position(index)) }
            offset += batch.rows.count
            if batch.rows.isEmpty || batch.isLast { break }
            page += 1
        }
        return collector.manifest
    }
}

/// One feed row that cannot become a photo.
package struct MappingError: Error {
    package var id: String?
    package var location: String?
    package var reason: String
}
