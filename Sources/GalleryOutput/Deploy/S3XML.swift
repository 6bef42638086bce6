import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The few S3 XML documents a deploy reads and writes: ListObjectsV2 pages, DeleteObjects
/// requests and results, and error bodies. Parsing is Foundation's `XMLParser`.
package enum S3XML {
    /// A parsed document, flattened: the root's own text children, and the text children of each
    /// repeated record element (`Contents`, `Error`, `Deleted`) in document order.
    package struct Document {
        package var root = ""
        package var fields: [String: String] = [:]
        package var records: [(name: String, fields: [String: String])] = []

        package func records(_ name: String) -> [[String: String]] {
            records.filter { $0.name == name }.map(\.fields)
        }
    }

    /// One page of `ListObjectsV2`.
    package struct ListPage {
        package var objects: [(key: String, size: Int, etag: String)]
        /// The token for the next page; nil on the last one.
        package var continuationToken: String?
    }

    /// A `<Code>`/`<Message>` error body.
    package struct ErrorBody: Equatable {
        package var code: String
        package var message: String

        package init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Elements whose children are gathered into one record each.
    static let recordElements: Set<String> = ["Contents", "Error", "Deleted"]

    /// Parses `data`; nil when it is not well-formed XML, or not shaped as S3 writes XML.
    ///
    /// S3 answers in UTF-8, with an XML declaration and no DOCTYPE or processing instruction.
    /// Anything else is refused before `XMLParser` sees it, because swift-corelibs-foundation's
    /// callbacks crash on some of it (both found by the `s3-xml` fuzz harness): a name with invalid
    /// UTF-8 (they force-unwrap its conversion to `String`) and a processing instruction without
    /// data, such as `<?x?>` (they pass libxml2's null pointer to `strlen`).
    package static func parse(_ data: Data) -> Document? {
        guard let text = String(validating: data, as: UTF8.self) else { return nil }
        var rest = Substring(text)
        if rest.hasPrefix("\u{feff}") { rest = rest.dropFirst() }
        // The declaration is `<?xml`, a blank (as libxml2 tells it from a processing instruction `<?xml?>`)
        // and attributes up to its first `>`, which ends it as `?>`.
        if rest.hasPrefix("<?xml"), let blank = rest.utf8.dropFirst(5).first, [0x20, 0x09, 0x0d, 0x0a].contains(blank),
            let close = rest.firstIndex(of: ">"), rest[..<close].hasSuffix("?"),
            !rest[..<close].dropFirst().contains("<")
        {
            rest = rest[rest.index(after: close)...]
        }
        guard !rest.contains("<?"), !rest.contains("<!DOCTYPE") else { return nil }
        let parser = XMLParser(data: data)
        let collector = Collector()
        parser.delegate = collector
        guard parser.parse() else { return nil }
        return collector.document
    }

    package static func listPage(_ data: Data) -> ListPage? {
        guard let document = parse(data), document.root == "ListBucketResult" else { return nil }
        var objects: [(key: String, size: Int, etag: String)] = []
        for record in document.records("Contents") {
            guard let key = record["Key"] else { return nil }
            objects.append((key, Int(record["Size"] ?? "") ?? 0, record["ETag"] ?? ""))
        }
        let truncated = document.fields["IsTruncated"] == "true"
        return ListPage(objects: objects, continuationToken: truncated ? document.fields["NextContinuationToken"] : nil)
    }

    /// The error of an error body (the root is `Error`), or nil.
    package static func error(_ data: Data) -> ErrorBody? {
        guard let document = parse(data), document.root == "Error" else { return nil }
        return ErrorBody(code: document.fields["Code"] ?? "", message: document.fields["Message"] ?? "")
    }

    /// The keys a `DeleteObjects` result says could not be deleted, with why.
    package static func deleteFailures(_ data: Data) -> [(key: String, error: ErrorBody)]? {
        guard let document = parse(data), document.root == "DeleteResult" else { return nil }
        return document.records("Error").map {
            ($0["Key"] ?? "", ErrorBody(code: $0["Code"] ?? "", message: $0["Message"] ?? ""))
        }
    }

    /// A quiet `DeleteObjects` request body: only failures come back.
    package static func deleteRequest(keys: [String]) -> Data {
        var xml =
            #"<?xml version="1.0" encoding="UTF-8"?><Delete xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Quiet>true</Quiet>"#
        for key in keys { xml += "<Object><Key>\(escape(key))</Key></Object>" }
        return Data((xml + "</Delete>").utf8)
    }

    package static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var document = Document()
        private var stack: [String] = []
        private var text = ""
        private var record: [String: String]?

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if stack.isEmpty { document.root = name }
            if stack.count == 1, Self.isRecord(name, in: document.root) { record = [:] }
            stack.append(name)
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            text += string
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            stack.removeLast()
            if stack.count == 1, let finished = record, Self.isRecord(name, in: document.root) {
                document.records.append((name, finished))
                record = nil
            } else if stack.count == 2, record != nil {
                record?[name] = text
            } else if stack.count == 1 {
                document.fields[name] = text
            }
            text = ""
        }

        /// `Error` is a record inside `DeleteResult` but the root of an error body.
        private static func isRecord(_ name: String, in root: String) -> Bool {
            recordElements.contains(name) && root != name
        }
    }
}
