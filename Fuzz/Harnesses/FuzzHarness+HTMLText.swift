import Foundation
import GalleryModel
import GalleryProviders

extension FuzzHarness {
    /// Feed descriptions turned into Markdown source, and the cleaning every untrusted text gets.
    static let htmlText = FuzzHarness(
        name: "html-text",
        summary: "HTMLText.markdown(fromHTML:), UntrustedText.clean"
    ) { data in
        let text = String(decoding: data, as: UTF8.self)
        let markdown = HTMLText.markdown(fromHTML: text)
        if let cleaned = UntrustedText.clean(markdown, max: 40), cleaned.count > 41 {
            return "a cleaned text over its cap"
        }
        return nil
    }
}
