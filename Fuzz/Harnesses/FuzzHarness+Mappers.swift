import Foundation
import GalleryConfig
import GalleryProviders

extension FuzzHarness {
    /// The Flickr, 500px and Parse row mappers, fed every row of a (leniently parsed) API answer.
    static let mappers = FuzzHarness(
        name: "mappers",
        summary: "JSONValue.parseLenient, FlickrMapping.photo, FiveHundredPxMapping.photo, ParseMapping.photo"
    ) { data in
        guard let body = try? JSONValue.parseLenient(data) else { return nil }
        let parse = ParseMapping(columns: [
            "image": "image", "thumbnail": "thumbnail", "title": "title",
            "description": "description", "author": "author", "takenAt": "takenAt",
            "tags": "tags", "album": "album", "license": "license"
        ])
        let rows =
            body["photos"]?["photo"]?.array ?? body["photos"]?.array ?? body["results"]?.array
            ?? body["items"]?.array ?? body.array ?? [body]
        for row in rows.prefix(50) {
            _ = try? FlickrMapping.photo(row, licenses: FlickrMapping.builtInLicenses, album: "fuzz")
            _ = try? FiveHundredPxMapping.photo(row)
            _ = try? parse.photo(row)
        }
        return nil
    }
}
