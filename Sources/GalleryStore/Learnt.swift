import GalleryModel

/// What one photo's work taught the build beyond its state row, carried back in its outcome for
/// the state to write (`BuildState.learn`, `PhotoRows`):
/// - the header facts of its original, when they were read from its bytes or adopted from an
///   images-only build's learnt file;
/// - the placeholder of its thumbnail, when it was made (by its own render or a shared one) or adopted;
/// - the records of the blobs this build stored, re-hashed or adopted for it (`BlobFile.record`).
///
/// Photos that share an original or a render may carry the same item; each is written once.
package struct Learnt: Sendable {
    package var facts: (hash: Digest, value: OriginalFacts)?
    package var placeholder: (key: Digest, value: Placeholder)?
    package var blobs: [BlobRecord] = []

    package init(
        facts: (hash: Digest, value: OriginalFacts)? = nil, placeholder: (key: Digest, value: Placeholder)? = nil,
        blobs: [BlobRecord] = []
    ) {
        self.facts = facts
        self.placeholder = placeholder
        self.blobs = blobs
    }

    /// A blob's new record, if the lookup or store that gave `file` has one.
    package mutating func add(_ file: BlobFile) {
        if let record = file.record { blobs.append(record) }
    }
}

/// Something a build looked up or made, and whether the state has it yet.
package struct Found<Value: Sendable>: Sendable {
    package var value: Value
    /// Not in the state yet: made by this build, or found in an images-only build's learnt file
    /// (`SharedCache`). The work that used it carries it back as learnt, so the state has it from now on.
    package var isNew: Bool

    package init(_ value: Value, isNew: Bool = false) {
        self.value = value
        self.isNew = isNew
    }
}
