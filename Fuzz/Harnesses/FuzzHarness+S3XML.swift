import Foundation
import GalleryOutput

extension FuzzHarness {
    /// The S3 XML answers a deploy reads: object listings, error bodies, delete results.
    static let s3XML = FuzzHarness(
        name: "s3-xml",
        summary: "S3XML.listPage, S3XML.error, S3XML.deleteFailures"
    ) { data in
        _ = S3XML.listPage(data)
        _ = S3XML.error(data)
        _ = S3XML.deleteFailures(data)
        return nil
    }
}
