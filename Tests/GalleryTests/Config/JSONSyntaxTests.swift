import Foundation
import GalleryConfig
import Testing

/// The strict JSON check behind config and manifest errors: what it refuses, where, and in what words.
@Suite("JSON syntax check")
struct JSONSyntaxTests {
    /// The failure for `json`, after checking that feeding it a byte at a time finds the same one.
    static func failure(_ json: String) -> String? {
        let data = Data(json.utf8)
        var whole: String?
        do {
            try JSONSyntax.check(data)
        } catch {
            whole = error.description
        }
        var syntax = JSONSyntax()
        var single: String?
        do {
            for byte in data { try [byte].withUnsafeBytes { try syntax.feed($0) } }
            try syntax.finish()
        } catch {
            single = "\(error)"
        }
        #expect(whole == single, "\(json)")
        return whole
    }

    @Test func acceptsJSON() {
        for json in [
            "{}", "[]", " \r\n\t[ ] ", "0", "-0.5e+10", "1E-2", "\"\\u00e9\\n\\\"\\\\\\/\\b\\f\\r\\t\"", "true", "null",
            #"{"a": [1, {"b": [false, null, "x"]}], "c": {}, "é": "😀"}"#, "[[[[]]]]", #"{"":""}"#
        ] {
            #expect(Self.failure(json) == nil, "\(json)")
            #expect(
                (try? JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)) != nil, "\(json)"
            )
        }
    }

    @Test func refusesWhatJSONDoesNotAllowAndSaysWhere() {
        let cases = [
            (
                "[1, 2,]",
                #"1:6: trailing comma after item 2 of the top-level array; remove it (JSON allows no comma before "]")"#
            ),
            (
                #"{"a": {"b": 1,}}"#,
                #"1:14: trailing comma after the value of "b"; remove it (JSON allows no comma before "}")"#
            ),
            ("[01]", "1:2: a number cannot start with 0 followed by a digit; write 7, not 07, or quote it as a string"),
            ("[-x]", #"1:3: expected a digit after "-""#),
            ("[1.]", "1:4: expected a digit after the decimal point"),
            ("[1e]", "1:4: expected a digit in the number's exponent"),
            ("[\"a\nb\"]", "1:4: a line break inside a string; close the string with a double quote, or write \\n"),
            ("[\"a\tb\"]", "1:4: a tab inside a string; write it as \\t"),
            ("[\"a\u{1}\"]", "1:4: control character U+0001 inside a string; write it as \\u0001"),
            (#"["a\qb"]"#, #"1:5: "\q" is not a JSON escape; write "\\" for a backslash"#),
            (#"["\u12"]"#, #"1:7: expected four hex digits after "\u""#),
            (#"{"a" 1}"#, #"1:6: expected ":" after the key "a", found "1""#),
            (
                "{a: 1}",
                "1:2: expected a key in double quotes, found \"a\"; write text in double quotes, and true, false and null in lower case"
            ),
            ("[1 // one\n]", #"1:4: expected "," or "]" after item 1 of the top-level array, found "/""#),
            (
                "[// one\n1]",
                #"1:2: expected a value for item 1 of the top-level array, found "/"; JSON has no comments, remove it"#
            ),
            (
                "[tru]",
                "1:2: expected a value for item 1 of the top-level array, found \"t\"; write text in double quotes, and true, false and null in lower case"
            ),
            (
                "[True]",
                "1:2: expected a value for item 1 of the top-level array, found \"T\"; write text in double quotes, and true, false and null in lower case"
            ),
            (#"{"a": [[1], [2 3]]}"#, #"1:16: expected "," or "]" after item 1 of item 2 of "a", found "3""#),
            (#"{"a": 1]"#, #"1:8: expected "," or "}" after the value of "a", found "]""#),
            ("[1] 2", #"1:5: found "2" after the end of the top-level value; remove it"#),
            ("{\"é😀\": 1,\n \"ü\" 2}", #"2:6: expected ":" after the key "ü", found "2""#),
            ("[\n[\n", "3:1: the file ends before the \"]\" that closes the array opened at 2:1"),
            ("   ", "1:4: the file is empty; expected a JSON value"),
            ("-", #"1:2: expected a digit after "-""#)
        ]
        for (json, expected) in cases {
            #expect(Self.failure(json) == expected, "\(json)")
        }
    }

    /// `JSONDecoder` takes 512 levels of nesting, the document's own included; so does the check.
    @Test func nestingIsLimited() {
        let deep = { (levels: Int) in String(repeating: "[", count: levels) + String(repeating: "]", count: levels) }
        #expect(Self.failure(deep(512)) == nil)
        #expect(Self.failure(deep(513)) == "1:513: arrays and objects nest more than 512 levels deep here")
    }
}
