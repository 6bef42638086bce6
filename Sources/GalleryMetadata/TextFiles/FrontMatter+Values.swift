import Foundation
import GalleryModel
import Yams

/// The typed accessors of `FrontMatter`: each cleans and caps its value and names the line of a wrong one.
extension FrontMatter {
    /// A failure naming `key`'s line: by default, a value that is wrong.
    package func failure(_ key: String, _ reason: String, kind: MetadataFileError.Kind = .badValue) -> MetadataFileError
    {
        MetadataFileError(kind, file: file, line: lines[key], reason: reason)
    }

    /// The first of `keys` that is present, with its value.
    private func field(_ keys: [String]) -> (key: String, node: Node)? {
        keys.lazy.compactMap { key in fields[key].map { (key, $0) } }.first
    }

    /// A text value (a number or date is taken as written), cleaned and capped; nil when absent or empty.
    package func string(_ keys: String..., max: Int) throws -> String? {
        guard case let (key, node)? = field(keys) else { return nil }
        if case .scalar(let scalar) = node {
            return node.null != nil ? nil : UntrustedText.clean(scalar.string, max: max)
        }
        throw failure(key, "\"\(key)\" must be a single value, not a list or a mapping")
    }

    /// `true`/`false` (also `yes`/`no`); nil when absent.
    package func bool(_ keys: String...) throws -> Bool? {
        guard case let (key, node)? = field(keys) else { return nil }
        guard let value = node.bool else { throw failure(key, "\"\(key)\" must be true or false") }
        return value
    }

    /// A whole number (`03` is 3), as sigal's `Order:` and Hugo's `weight` are written; nil when absent.
    package func integer(_ keys: String...) throws -> Int? {
        guard case let (key, node)? = field(keys) else { return nil }
        guard node.null == nil else { return nil }
        let text = node.scalar?.string ?? "a list or a mapping"
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), abs(value) < 1_000_000_000 else {
            throw failure(key, "\"\(key)\" must be a whole number such as 3, not \"\(text.prefix(40))\"")
        }
        return value
    }

    /// A list of texts (`[a, b]`, one `- item` per line, or `a, b` in one string), cleaned, capped and unique.
    package func list(_ keys: String..., max: Int, count: Int) throws -> [String]? {
        guard case let (key, node)? = field(keys) else { return nil }
        let items: [String]
        switch node {
        case .scalar(let scalar): items = scalar.string.split(separator: ",").map(String.init)
        case .sequence(let sequence):
            items = try sequence.prefix(count * 2).map { item in
                guard let text = item.scalar?.string else { throw failure(key, "\"\(key)\" must list plain values") }
                return text
            }
        default: throw failure(key, "\"\(key)\" must be a list or a comma-separated string")
        }
        var unique: [String] = []
        for item in items.compactMap({ UntrustedText.clean($0, max: max) })
        where !unique.contains(item) && unique.count < count {
            unique.append(item)
        }
        return unique
    }
}

/// Pelican's `Status:` of a page: what becomes of an album's or a photo's text file that says it.
package enum PublishStatus: String, Sendable, Equatable, CaseIterable {
    /// Published as usual.
    case published
    /// Not published: an album's own photos, or the photo, are left out (as Hugo's `draft: true`).
    case draft
    /// Published but listed nowhere: an album becomes unlisted; a photo, which has no listing of its
    /// own to leave, is left out like a draft.
    case hidden
}

extension FrontMatter {
    /// `status` (Pelican: `published`, `draft` or `hidden`, any case); nil when absent.
    package func status() throws -> PublishStatus? {
        guard let text = try string("status", max: 40) else { return nil }
        guard let status = PublishStatus(rawValue: text.lowercased()) else {
            throw failure("status", "unknown status \"\(text.prefix(40))\"; use published, draft or hidden")
        }
        return status
    }
}
