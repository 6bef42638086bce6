import Foundation
import GalleryModel

/// Random manifest documents, written as text: good and bad entries, strings full of brackets,
/// quotes, escapes and non-ASCII, keys in any order, unknown keys (with values `JSONDecoder` only
/// checks), whitespace wherever JSON allows it, and now and then a trailing comma (which JSON does
/// not allow), a duplicate key, another shape, a byte order mark or UTF-16.
struct ManifestGenerator {
    var random: SeededRandom
    var maxEntries = 12

    mutating func document() -> Data {
        let text: String
        switch int(0..<20) {
        case 0..<13: text = space() + object() + space()
        case 13..<18: text = space() + entries() + space()
        default:
            text =
                space()
                + pick([
                    "5", #""photos""#, "null", "false", "{}", #"{"photo": []}"#, #"{"photos": {}}"#,
                    #"{"photos": "[]"}"#
                ]) + space()
        }
        switch int(0..<20) {
        case 0: return Data([0xef, 0xbb, 0xbf]) + Data(text.utf8)
        case 1: return text.data(using: .utf16LittleEndian) ?? Data()
        case 2: return text.data(using: .utf16) ?? Data()
        default: return Data(text.utf8)
        }
    }

    private mutating func object() -> String {
        var members = [key(chance(0.05) ? #"phot\u006fs"# : "photos") + entries()]
        if chance(0.6) { members.append(key("albums") + albums()) }
        for _ in 0..<int(0..<4) {
            members.append(
                key(pick(["generator", "version", "x", "photo", "Photos", "", "é"])) + value(depth: 1, unread: true))
        }
        if chance(0.1) { members.append(key("photos") + (chance(0.5) ? entries() : value(depth: 1, unread: true))) }
        if chance(0.1) { members.append(key("albums") + (chance(0.5) ? albums() : value(depth: 1))) }
        return container("{", members.shuffled(using: &random), "}")
    }

    private mutating func entries() -> String {
        container("[", (0..<int(0...maxEntries)).map { _ in entry() }, "]")
    }

    private mutating func entry() -> String {
        guard chance(0.88) else { return pick(["5", #""text""#, "null", "true", "[1, 2]", "{}", #"{"id": "x"}"#]) }
        var fields: [String] = []
        if chance(0.95) {
            let odd = pick([
                "\"p\(int(0..<40))\"", "17", "3.5", #""../x""#, #"".hidden""#, #""a b""#, "null", #""\u0070\u0031""#
            ])
            fields.append(key("id") + (chance(0.8) ? "\"p\(int(0..<200))\"" : odd))
        }
        if chance(0.95) {
            let odd = pick([
                "\"https://cdn.example.com/\(int(0..<9)).jpg\"", #""../../etc/passwd""#, #""javascript:alert(1)""#,
                #""""#, #""/abs.jpg""#, #""img\/a%20b.jpg""#, "5"
            ])
            fields.append(key("image") + (chance(0.8) ? "\"img/\(int(0..<9)).jpg\"" : odd))
        }
        for name in [
            "title", "description", "takenAt", "tags", "author", "authorUrl", "license", "camera", "rating", "album",
            "title", "extra"
        ] where chance(0.35) {
            fields.append(key(name) + field(name))
        }
        return container("{", fields.shuffled(using: &random), "}")
    }

    private mutating func field(_ name: String) -> String {
        switch name {
        case "takenAt": return #""2024-06-01T10:00:00""#
        case "tags": return chance(0.7) ? container("[", (0..<int(0..<4)).map { _ in string() }, "]") : string()
        case "author", "license":
            return chance(0.5) ? string() : container("{", [key("name") + string(), key("url") + link()], "}")
        case "authorUrl": return link()
        case "camera":
            return container(
                "{",
                [
                    key("make") + string(), key("focalLength") + number(),
                    key("iso") + pick(["400", #""800""#, "null"])
                ], "}")
        case "rating": return pick(["5", #""3""#, "2.5", "-1", "7", #""x""#, "1e0"])
        case "album": return pick([#""2024/Iceland""#, #""2024""#, #""../up""#, #""a//b/""#])
        case "extra": return value(depth: 2)
        default: return string()
        }
    }

    private mutating func albums() -> String {
        guard chance(0.9) else { return pick(["null", "[]", #""2024""#, "5"]) }
        let paths = ["2024", "2024/Iceland", "2024/Iceland//", "../x", "", "Home/Garden"]
        return container(
            "{",
            (0..<int(0..<4)).map { _ in
                let settings = [
                    key("title") + string(), key("cover") + pick([#""p1""#, #""../p""#]),
                    key("sort") + pick([#""-name""#, #""up""#]),
                    key("showInHome") + pick(["false", #""no""#]), key("colour") + string()
                ]
                return key(pick(paths))
                    + (chance(0.85) ? container("{", settings.filter { _ in chance(0.4) }, "}") : value(depth: 2))
            }, "}")
    }

    /// Any value; where it is `unread`, now and then a string or number that is JSON but that
    /// `JSONDecoder` refuses only when asked to decode it (and, rarely, elsewhere too); and rarely
    /// one that is not JSON at all (`JSONDecoder` takes some of them where it decodes nothing).
    private mutating func value(depth: Int, unread: Bool = false) -> String {
        let odd = chance(unread ? 0.2 : 0.005)
        let notJSON = !unread || chance(0.05)
        switch depth > 3 ? int(0..<3) : int(0..<5) {
        case 0:
            return odd
                ? pick(notJSON ? [#""\q""#, #""\ud800""#, "\"raw\ttab\"", #""\u00zz""#] : [#""\ud800""#, #""x\udc00""#])
                : string()
        case 1: return odd ? pick(notJSON ? ["1e400", "01", "1.", "-", "1e+"] : ["1e400", "-1e999"]) : number()
        case 2: return pick(["true", "false", "null"])
        case 3: return container("[", (0..<int(0..<4)).map { _ in value(depth: depth + 1, unread: unread) }, "]")
        default:
            return container(
                "{",
                (0..<int(0..<4)).map { _ in
                    key(pick(["a", "b", "photos", "]}"])) + value(depth: depth + 1, unread: unread)
                },
                "}")
        }
    }

    private mutating func string() -> String {
        let pieces = [
            "plain", "Photo", " ", "]", "}", "[", "{", ",", ":", #"\""#, #"\\"#, #"\/"#, #"\n"#, #"\t"#, #"\u00e9"#,
            #"\ud83d\ude00"#, "é", "日本", "😀", #"\u0001"#, #"\u005d"#, "**bold**", "<b>", "\u{7f}", "x\u{85}"
        ]
        return "\"" + (0..<int(0..<6)).map { _ in pick(pieces) }.joined() + "\""
    }

    private mutating func link() -> String {
        pick([#""https://example.com/a""#, #""http://x""#, #""ftp://x""#, #"" https://example.com/b ""#, "5"])
    }

    private mutating func number() -> String {
        pick(["0", "-1", "3.25", "1e3", "-0.5E-2", "12345678901234567890", "42"])
    }

    /// `open`, the items with whitespace around them and between commas (and, rarely, a trailing comma), `close`.
    private mutating func container(_ open: String, _ items: [String], _ close: String) -> String {
        guard !items.isEmpty else { return open + space() + close }
        let trailing = chance(0.003) ? space() + "," : ""
        return open + space() + items.map { $0 + space() }.joined(separator: "," + space()) + trailing + space() + close
    }

    private mutating func key(_ name: String) -> String {
        "\"\(name)\"" + space() + ":" + space()
    }

    private mutating func space() -> String {
        pick(["", "", "", " ", "\n", "\t", "\r\n  ", "  "])
    }

    private mutating func int(_ range: Range<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    private mutating func chance(_ probability: Double) -> Bool {
        Double.random(in: 0..<1, using: &random) < probability
    }
    private mutating func pick(_ choices: [String]) -> String { choices[int(0..<choices.count)] }
}
