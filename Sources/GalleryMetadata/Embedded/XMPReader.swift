import CExempi
import Foundation
import GalleryModel

/// Reads the descriptive fields of an XMP packet with exempi (Adobe's XMP Toolkit), the only file
/// that imports it.
///
/// exempi catches the toolkit's C++ exceptions and reports failure by return value, so malformed
/// packets (bad XML, a DOCTYPE, wrong RDF) simply yield nil. The packet's size is capped before it
/// reaches the parser; the strings it hands back are cleaned and capped by `EmbeddedMetadata`.
package enum XMPReader {
    /// The largest packet parsed. Descriptive XMP is a few kilobytes; 1 MiB is generous.
    package static let maxPacketBytes = 1 << 20

    private static let dc = "http://purl.org/dc/elements/1.1/"
    private static let xmp = "http://ns.adobe.com/xap/1.0/"
    private static let xmpRights = "http://ns.adobe.com/xap/1.0/rights/"
    private static let photoshop = "http://ns.adobe.com/photoshop/1.0/"
    private static let exif = "http://ns.adobe.com/exif/1.0/"
    private static let creativeCommons = "http://creativecommons.org/ns#"
    private static let lightroom = "http://ns.adobe.com/lightroom/1.0/"
    private static let hdrgm = "http://ns.adobe.com/hdr-gain-map/1.0/"
    private static let appleGainMap = "http://ns.apple.com/HDRGainMap/1.0/"

    /// `xmp_init` must run once per process before any other call; a static `let` runs it once,
    /// thread-safely. The schemas read below are registered too: asking for a property in an
    /// unregistered one makes the toolkit print "Unregistered schema namespace URI" to stderr.
    private static let initialized: Bool = {
        guard xmp_init() else { return false }
        let schemas = [
            (dc, "dc"), (xmp, "xmp"), (xmpRights, "xmpRights"), (photoshop, "photoshop"), (exif, "exif"),
            (creativeCommons, "cc"), (lightroom, "lr"), (hdrgm, "hdrgm"), (appleGainMap, "HDRGainMap")
        ]
        for (uri, prefix) in schemas {
            _ = string { xmp_register_namespace(uri, prefix, $0) }
        }
        return true
    }()

    /// Why a packet could not be read.
    package enum Failure: Error, Equatable {
        case tooLarge(Int)
        case notXMP
    }

    /// The fields found in `packet` on their own, as a sidecar is read (raw values, not yet cleaned).
    /// - Throws: `Failure` when the packet is over `maxPacketBytes` or exempi cannot parse it.
    package static func read(_ packet: Data) throws -> EmbeddedMetadata {
        try fields(packet).alone
    }

    /// The fields found in `packet`, kept apart for the MWG's choice between blocks.
    /// - Throws: `Failure` when the packet is over `maxPacketBytes` or exempi cannot parse it.
    package static func fields(_ packet: Data) throws -> MetadataFields {
        guard packet.count <= maxPacketBytes else { throw Failure.tooLarge(packet.count) }
        guard initialized, !packet.isEmpty else { throw Failure.notXMP }
        guard let parsed = parseQuietly(packet) else { throw Failure.notXMP }
        defer { xmp_free(parsed) }

        var result = MetadataFields()
        result.title = localized(parsed, dc, "title")
        result.headline = property(parsed, photoshop, "Headline")
        result.description = localized(parsed, dc, "description")
        let hierarchical = items(parsed, lightroom, "hierarchicalSubject")
        result.keywords = DarktableTags.withoutBookkeeping(items(parsed, dc, "subject"), hierarchical: hierarchical)
        // Lightroom's `Places|Iceland|Reykjavík`: the leaf is the keyword.
        result.otherKeywords = hierarchical.filter { !DarktableTags.isBookkeeping($0) }
            .compactMap { $0.split(separator: "|").last.map(String.init) }
        result.creators = items(parsed, dc, "creator")
        result.copyright = localized(parsed, dc, "rights")
        result.licenseURL =
            [property(parsed, xmpRights, "WebStatement"), property(parsed, creativeCommons, "license")]
            .lazy.compactMap { $0.flatMap(EmbeddedMetadata.webURL) }.first
        result.rating = property(parsed, xmp, "Rating").flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            .flatMap { $0.isFinite ? Int($0.rounded()) : nil }
        result.dateTaken = property(parsed, photoshop, "DateCreated")
        result.otherDate = property(parsed, exif, "DateTimeOriginal") ?? property(parsed, xmp, "CreateDate")
        return result
    }

    /// The gain-map fields of a gain map image's XMP: Adobe's `hdrgm` values (one, or one per
    /// channel) and Apple's `HDRGainMap` ones; both empty when the packet has none or is unreadable.
    package static func gainMapFields(_ packet: Data) -> (adobe: [String: [String]], apple: [String: String]) {
        guard packet.count <= maxPacketBytes, initialized, !packet.isEmpty, let parsed = parseQuietly(packet) else {
            return ([:], [:])
        }
        defer { xmp_free(parsed) }
        var adobe: [String: [String]] = [:]
        let names = [
            "Version", "GainMapMin", "GainMapMax", "Gamma", "OffsetSDR", "OffsetHDR", "HDRCapacityMin",
            "HDRCapacityMax", "BaseRenditionIsHDR"
        ]
        for name in names {
            if let value = property(parsed, hdrgm, name) {
                adobe[name] = [value]
            } else {
                let perChannel = items(parsed, hdrgm, name, limit: 4)
                if !perChannel.isEmpty { adobe[name] = perChannel }
            }
        }
        var apple: [String: String] = [:]
        for name in ["HDRGainMapVersion", "HDRGainMapHeadroom"] {
            apple[name] = property(parsed, appleGainMap, name)
        }
        return (adobe, apple)
    }

    /// exempi prints every error the XMP Toolkit raises to stderr (`std::cerr`), so a photo whose
    /// XMP is malformed (Capture One has written duplicate properties) printed a bare "Duplicate
    /// property or field node" with no file name. Parsing runs with stderr diverted into a pipe,
    /// one parse at a time; anything else written meanwhile is passed on, and only a failed
    /// parse's own last line is dropped (the packet then simply counts as no XMP).
    private static let stderrLock = NSLock()

    private static func parseQuietly(_ packet: Data) -> XmpPtr? {
        func parse() -> XmpPtr? {
            packet.withUnsafeBytes { raw -> XmpPtr? in
                guard let base = raw.baseAddress else { return nil }
                return xmp_new(base.assumingMemoryBound(to: CChar.self), raw.count)
            }
        }
        stderrLock.lock()
        defer { stderrLock.unlock() }
        var ends: [Int32] = [-1, -1]
        let saved = dup(STDERR_FILENO)
        guard saved >= 0, pipe(&ends) == 0 else {
            if saved >= 0 { close(saved) }
            return parse()
        }
        // Neither end may block: a full pipe then drops text instead of stalling the writer.
        for end in ends { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        fflush(nil)
        dup2(ends[1], STDERR_FILENO)
        close(ends[1])
        let parsed = parse()
        fflush(nil)
        dup2(saved, STDERR_FILENO)
        close(saved)
        var captured = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = Glibc.read(ends[0], &buffer, buffer.count)
            guard count > 0 else { break }
            captured += buffer[..<count]
        }
        close(ends[0])
        if parsed == nil, captured.last == 0x0a {
            captured.removeLast()
            captured = Array(captured[..<(captured.lastIndex(of: 0x0a).map { $0 + 1 } ?? 0)])
        }
        if !captured.isEmpty { _ = captured.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) } }
        return parsed
    }

    /// A simple property's value; nil for arrays and structs.
    private static func property(_ packet: XmpPtr, _ schema: String, _ name: String) -> String? {
        var options: UInt32 = 0
        let value = string { xmp_get_property(packet, schema, name, $0, &options) }
        return options & UInt32(XMP_PROP_COMPOSITE_MASK.rawValue) == 0 ? value : nil
    }

    /// A language alternative's default (`x-default`) text, or its first item; a plain property too.
    private static func localized(_ packet: XmpPtr, _ schema: String, _ name: String) -> String? {
        string { xmp_get_localized_text(packet, schema, name, "", "x-default", nil, $0, nil) }
            ?? property(packet, schema, name) ?? items(packet, schema, name, limit: 1).first
    }

    /// The items of an array (bag, sequence or alternative), at most `limit`.
    private static func items(
        _ packet: XmpPtr, _ schema: String, _ name: String,
        limit: Int = EmbeddedMetadata.maxKeywords
    ) -> [String] {
        var values: [String] = []
        for index in 1...Int32(limit) {  // XMP arrays count from 1
            guard let value = string({ xmp_get_array_item(packet, schema, name, index, $0, nil) }) else { break }
            values.append(value)
        }
        return values
    }

    /// Runs `body` with a fresh exempi string and returns its text when `body` succeeded.
    private static func string(_ body: (XmpStringPtr) -> Bool) -> String? {
        guard let buffer = xmp_string_new() else { return nil }
        defer { xmp_string_free(buffer) }
        guard body(buffer), let text = xmp_string_cstr(buffer) else { return nil }
        return String(cString: text)
    }
}
