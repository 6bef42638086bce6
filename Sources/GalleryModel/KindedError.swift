/// The shape of every stage's error: it says what went wrong twice, as a `kind`, which callers that
/// act on the problem switch on (as on GRDB's `resultCode`), and in words, its `description`, which
/// only people read (docs/ARCHITECTURE.md, "Errors").
package protocol KindedError: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as callers match on it: an enum whose cases are the error's kinds.
    associatedtype Kind: Sendable, Equatable
    var kind: Kind { get }
}

/// An error that is its kind and its words and nothing more. A stage names its own
/// (`package typealias StoreError = KindedFailure<StoreErrorKind>`), declares its kinds in the enum
/// beside it, and makes its words in one place: the static functions of an extension, or its
/// throwing sites where each says something of its own.
package struct KindedFailure<Kind: Sendable & Equatable>: KindedError, Equatable {
    package let kind: Kind
    package let description: String

    package init(_ kind: Kind, _ description: String) {
        self.kind = kind
        self.description = description
    }
}
