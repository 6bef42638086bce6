import Foundation

/// The XMP packets an Ultra HDR file carries, written from numbers alone: nothing of the source's
/// own XMP (which may hold a position or a serial number) is copied.
///
/// The primary image's packet says it has a gain map (`hdrgm:Version`) and where it is (the
/// Container directory, read by Android); the gain map image's packet holds the values.
package enum GainMapXMP {
    private static let head = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="galleryssg">\
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        """
    private static let tail = "</rdf:RDF></x:xmpmeta>"

    /// The primary image's packet, for a gain map image of `gainMapLength` bytes.
    package static func primary(gainMapLength: Int) -> Data {
        let description = """
            <rdf:Description rdf:about="" xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" \
            xmlns:Container="http://ns.google.com/photos/1.0/container/" \
            xmlns:Item="http://ns.google.com/photos/1.0/container/item/" hdrgm:Version="1.0">\
            <Container:Directory><rdf:Seq>\
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li>\
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg" \
            Item:Length="\(gainMapLength)"/></rdf:li>\
            </rdf:Seq></Container:Directory></rdf:Description>
            """
        return Data((head + description + tail).utf8)
    }

    /// The gain map image's packet: the `hdrgm` values and Apple's, whichever `metadata` has; nil
    /// when it has neither (an ISO 21496-1 block alone needs no XMP).
    package static func gainMap(_ metadata: GainMapMetadata) -> Data? {
        var namespaces: [String] = []
        var attributes: [String] = []
        var elements: [String] = []
        if let adobe = metadata.adobe {
            namespaces.append(#"xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/""#)
            attributes.append(#"hdrgm:Version="1.0""#)
            let channels: [(String, [Double])] = [
                ("GainMapMin", adobe.gainMapMin), ("GainMapMax", adobe.gainMapMax), ("Gamma", adobe.gamma),
                ("OffsetSDR", adobe.offsetSDR), ("OffsetHDR", adobe.offsetHDR)
            ]
            for (name, values) in channels {
                if values.count == 1 {
                    attributes.append("hdrgm:\(name)=\"\(number(values[0]))\"")
                } else {
                    let items = values.map { "<rdf:li>\(number($0))</rdf:li>" }.joined()
                    elements.append("<hdrgm:\(name)><rdf:Seq>\(items)</rdf:Seq></hdrgm:\(name)>")
                }
            }
            attributes.append("hdrgm:HDRCapacityMin=\"\(number(adobe.hdrCapacityMin))\"")
            attributes.append("hdrgm:HDRCapacityMax=\"\(number(adobe.hdrCapacityMax))\"")
            attributes.append("hdrgm:BaseRenditionIsHDR=\"\(adobe.baseRenditionIsHDR ? "True" : "False")\"")
        }
        if let apple = metadata.apple {
            namespaces.append(#"xmlns:HDRGainMap="http://ns.apple.com/HDRGainMap/1.0/""#)
            elements.append("<HDRGainMap:HDRGainMapVersion>\(apple.version)</HDRGainMap:HDRGainMapVersion>")
            elements.append("<HDRGainMap:HDRGainMapHeadroom>\(number(apple.headroom))</HDRGainMap:HDRGainMapHeadroom>")
        }
        guard !namespaces.isEmpty else { return nil }
        let open = "<rdf:Description rdf:about=\"\" " + (namespaces + attributes).joined(separator: " ")
        return Data((head + open + ">" + elements.joined() + "</rdf:Description>" + tail).utf8)
    }

    /// A finite number as XMP readers parse it (libultrahdr, Skia and exiftool use `strtod`).
    private static func number(_ value: Double) -> String {
        String(format: "%.9g", value)
    }
}
