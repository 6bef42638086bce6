import GalleryConfig

extension ManifestDocument {
    /// Where a refused document first stops being JSON, and why, found by reading it again.
    ///
    /// The entry-by-entry read keeps no line numbers (counting them would slow every manifest), so
    /// only a refusal pays for them: the document is read again from the start by `JSONSyntax`,
    /// a chunk at a time. A document that is JSON but has a value `JSONDecoder` cannot read (a number
    /// too large) is reported at that value, at `offset`.
    /// - Parameters:
    ///   - offset: Where the entry-by-entry read gave up (`Failure.invalidJSON`).
    ///   - bytes: The same document, from its start.
    /// - Throws: What reading `bytes` throws.
    package static func locate(_ offset: Int, in bytes: ManifestBytes) throws -> JSONSyntax.Failure {
        var bytes = bytes
        do {
            try bytes.convertToUTF8()
        } catch is Failure {
            return JSONSyntax.notText
        }
        var syntax = JSONSyntax(offset: bytes.offset)
        syntax.mark(offset)
        do {
            while let chunk = try bytes.takeChunk() {
                try chunk.withUnsafeBytes { try syntax.feed($0) }
            }
            try syntax.finish()
        } catch let failure as JSONSyntax.Failure {
            return failure
        }
        return JSONSyntax.unreadable(at: syntax.marked ?? JSONSyntax.Position(offset: offset))
    }
}
