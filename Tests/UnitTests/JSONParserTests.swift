import Foundation
import LedgerCore
import Testing

/// Asserts that parsing `input` fails with exactly this reason at exactly this position.
private func expectError(
    _ input: [UInt8], maxDepth: Int = 64,
    offset: Int, line: Int = 1, column: Int, reason: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let error = #expect(throws: JSONParseError.self, sourceLocation: sourceLocation) {
        try JSONParser.parse(input, maxDepth: maxDepth)
    }
    #expect(error == JSONParseError(offset: offset, line: line, column: column, reason: reason),
            sourceLocation: sourceLocation)
}

private func expectError(
    _ input: String, maxDepth: Int = 64,
    offset: Int, line: Int = 1, column: Int, reason: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    expectError(Array(input.utf8), maxDepth: maxDepth, offset: offset, line: line, column: column,
                reason: reason, sourceLocation: sourceLocation)
}

@Suite("JSONParser")
struct JSONParserTests {
    // MARK: Accepted input

    @Test("parses every kind of value")
    func parsesValues() throws {
        let value = try JSONParser.parse(#" {"a": [1, -2.5, 1E2, true, false, null, "x"], "b": {}} "#)
        #expect(value == ["a": [1, -2.5, 100, true, false, nil, "x"], "b": [:]])
        #expect(try JSONParser.parse("0") == 0)
        #expect(try JSONParser.parse(#""""#) == "")
        #expect(try JSONParser.parse("[]") == [])
    }

    @Test("decodes every escape, including surrogate pairs")
    func decodesEscapes() throws {
        let value = try JSONParser.parse(#""\"\\\/\b\f\n\r\t\u00e9\u00E9\uD83D\uDE00\u0000""#)
        #expect(value == .string("\"\\/\u{8}\u{C}\n\r\t\u{E9}\u{E9}\u{1F600}\u{0}"))
        let raw = try JSONParser.parse(Array("\"\u{7F}\u{E9}\u{1F600}\"".utf8))
        #expect(raw == .string("\u{7F}\u{E9}\u{1F600}"))
    }

    @Test("numbers are the correctly rounded double")
    func numbers() throws {
        #expect(try JSONParser.parse("0.1").doubleValue == 0.1)
        #expect(try JSONParser.parse("333333333.33333329").doubleValue == 333333333.3333333)
        #expect(try JSONParser.parse("-0").doubleValue?.sign == .minus)
        #expect(try JSONParser.parse("1e-400").doubleValue == 0)
        #expect(try JSONParser.parse("1.7976931348623157e308").doubleValue == .greatestFiniteMagnitude)
        #expect(try JSONParser.parse("9007199254740992").doubleValue == 9_007_199_254_740_992)
        #expect(try JSONParser.parse("-9007199254740992").doubleValue == -9_007_199_254_740_992)
        // With a fraction or exponent the author chose a double, so rounding is accepted.
        #expect(try JSONParser.parse("9007199254740993.0").doubleValue == 9_007_199_254_740_992)
        #expect(try JSONParser.parse("1e23").doubleValue == 1e23)
    }

    // MARK: Rejected input: the required cases

    @Test("duplicate key")
    func duplicateKey() {
        expectError(#"{"a":1,"b":2,"a":3}"#, offset: 13, column: 14, reason: #"duplicate key "a" in object"#)
        expectError(#"{"a":1,"\u0061":2}"#, offset: 7, column: 8, reason: #"duplicate key "a" in object"#)
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#) }
        #expect(error?.description == #"line 1, column 14: duplicate key "a" in object"#)
    }

    @Test("keys that differ only in Unicode normalization are duplicates")
    func canonicallyEquivalentKeys() {
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse(#"{"\u00e9":1,"e\u0301":2}"#) }
        #expect(error?.offset == 12)
        #expect(error?.reason.hasPrefix("duplicate key") == true)
        #expect(error?.reason.contains("canonically equivalent") == true)
    }

    @Test("the same key in different objects is fine")
    func sameKeyInSiblings() throws {
        #expect(try JSONParser.parse(#"{"a":{"a":1},"b":{"a":2}}"#)["b"]?["a"] == 2)
    }

    @Test("trailing comma")
    func trailingComma() {
        expectError("[1,2,]", offset: 4, column: 5, reason: "trailing comma in array")
        expectError(#"{"a":1,}"#, offset: 6, column: 7, reason: "trailing comma in object")
        expectError("[1,,2]", offset: 3, column: 4, reason: "unexpected character ',': expected a JSON value")
    }

    @Test("leading zero")
    func leadingZero() {
        expectError("01", offset: 0, column: 1, reason: "leading zeros are not allowed in numbers")
        expectError("[-012]", offset: 1, column: 2, reason: "leading zeros are not allowed in numbers")
        expectError("00.5", offset: 0, column: 1, reason: "leading zeros are not allowed in numbers")
    }

    @Test("lone surrogate escape")
    func loneSurrogate() {
        expectError(#""\uD800""#, offset: 1, column: 2, reason: #"unpaired high surrogate \uD800 in string"#)
        expectError(#""\udc00""#, offset: 1, column: 2, reason: #"unpaired low surrogate \uDC00 in string"#)
        expectError(#""x\uD83D\u0041""#, offset: 2, column: 3,
                    reason: #"unpaired high surrogate \uD83D in string (followed by \u0041, not a low surrogate)"#)
        expectError(#""\uDE00\uD83D""#, offset: 1, column: 2, reason: #"unpaired low surrogate \uDE00 in string"#)
    }

    @Test("raw control character in a string")
    func rawControlCharacter() {
        expectError(Array("[\"a\tb\"]".utf8), offset: 3, column: 4,
                    reason: "unescaped control character U+0009 in string")
        expectError(Array("\"a\nb\"".utf8), offset: 2, column: 3,
                    reason: "unescaped control character U+000A in string")
        expectError([0x22, 0x00, 0x22], offset: 1, column: 2, reason: "unescaped control character U+0000 in string")
    }

    @Test("invalid UTF-8")
    func invalidUTF8() {
        expectError([0x22, 0xFF, 0x22], offset: 1, column: 2,
                    reason: "invalid UTF-8: byte 0xFF cannot start a character")
        expectError([0x22, 0xC0, 0xAF, 0x22], offset: 1, column: 2,
                    reason: "invalid UTF-8: byte 0xC0 cannot start a character")  // overlong '/'
        expectError([0x22, 0xED, 0xA0, 0x80, 0x22], offset: 2, column: 3,
                    reason: "invalid UTF-8: byte 0xA0 cannot follow 0xED here")  // encoded surrogate
        expectError([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], offset: 2, column: 3,
                    reason: "invalid UTF-8: byte 0x90 cannot follow 0xF4 here")  // above U+10FFFF
        expectError([0x22, 0xE2, 0x82], offset: 1, column: 2,
                    reason: "invalid UTF-8: truncated sequence starting with 0xE2")
        expectError([0xEF, 0xBB, 0xBF, 0x31], offset: 0, column: 1, reason: "byte order mark (U+FEFF) is not allowed")
    }

    @Test("integer above 2^53 is rejected unless written as RFC 8785 writes its double")
    func integerAbove2to53() {
        let reason = "integer 9007199254740993 is beyond 2^53 = 9007199254740992, where an IEEE-754 double does not keep"
            + " every digit: it would be stored as 9007199254740992; send it as a string"
        expectError("9007199254740993", offset: 0, column: 1, reason: reason)
        expectError("[1, -9007199254740993]", offset: 4, column: 5, reason: reason.replacingOccurrences(
            of: "integer 9007199254740993", with: "integer -9007199254740993")
            .replacingOccurrences(of: "stored as 9007199254740992", with: "stored as -9007199254740992"))
        let error = #expect(throws: JSONParseError.self) { try JSONParser.parse("12345678901234567890") }
        #expect(error?.reason.contains("would be stored as 12345678901234567000") == true)
        // Found by the fuzzer (Tests/Fixtures/fuzz/json/crash-*): `1234567234567890123445.5e-3`, a number
        // with a fraction and an exponent, was accepted (rounded to a double), but its canonical form,
        // an integer literal beyond 2^53, was refused when parsed again. An integer written exactly as
        // RFC 8785 writes its double is now accepted, so every canonical form parses.
        for literal in ["100000000000000000", "53241673458000000", "-1152921504606847000", "999999999999999900000"] {
            let value = try? JSONParser.parse(literal)
            #expect(value.map { CanonicalJSON.encodeString($0) } == literal, "\(literal)")
        }
        #expect(error?.reason.contains("send it as a string") == true)
    }

    @Test("number overflowing a double is rejected")
    func overflow() {
        expectError("1e400", offset: 0, column: 1,
                    reason: "number 1e400 is out of range for an IEEE-754 double (it overflows to infinity)")
        expectError(#"{"n": -1.8e308}"#, offset: 6, column: 7,
                    reason: "number -1.8e308 is out of range for an IEEE-754 double (it overflows to infinity)")
    }

    @Test("nesting deeper than maxDepth is rejected")
    func depthLimit() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        expectError(deep, offset: 64, column: 65, reason: "nesting depth exceeds the maximum of 64")
        expectError(#"{"a":{"b":{}}}"#, maxDepth: 2, offset: 10, column: 11,
                    reason: "nesting depth exceeds the maximum of 2")
        #expect(try JSONParser.parse("1", maxDepth: 0) == 1)
    }

    @Test("trailing non-whitespace")
    func trailingGarbage() {
        expectError("{} x", offset: 3, column: 4, reason: "unexpected character 'x' after the JSON value")
        expectError("1 2", offset: 2, column: 3, reason: "unexpected character '2' after the JSON value")
        expectError("[1]]", offset: 3, column: 4, reason: "unexpected character ']' after the JSON value")
    }

    @Test("empty input")
    func emptyInput() {
        expectError("", offset: 0, column: 1, reason: "empty input: expected a JSON value")
        expectError(" \n ", offset: 3, line: 2, column: 2, reason: "empty input: expected a JSON value")
    }

    // MARK: Rejected input: other non-JSON syntax

    @Test("NaN and Infinity")
    func nanAndInfinity() {
        expectError("NaN", offset: 0, column: 1, reason: "NaN is not allowed in JSON")
        expectError("[Infinity]", offset: 1, column: 2, reason: "Infinity is not allowed in JSON")
        expectError("-Infinity", offset: 0, column: 1, reason: "-Infinity is not allowed in JSON")
    }

    @Test("comments")
    func comments() {
        expectError("[1, // one\n 2]", offset: 4, column: 5, reason: "comments are not allowed in JSON")
        expectError("/* c */ 1", offset: 0, column: 1, reason: "comments are not allowed in JSON")
        expectError("1 // c", offset: 2, column: 3, reason: "unexpected character '/' after the JSON value")
    }

    @Test("other malformed input")
    func otherMalformed() {
        expectError("{'a':1}", offset: 1, column: 2, reason: "strings must be enclosed in double quotes")
        expectError(#"{a:1}"#, offset: 1, column: 2, reason: "expected a string key in object, found character 'a'")
        expectError(#"{"a" 1}"#, offset: 5, column: 6, reason: "expected ':' after object key, found character '1'")
        expectError(#"[1 2]"#, offset: 3, column: 4, reason: "expected ',' or ']' in array, found character '2'")
        expectError(#""abc"#, offset: 0, column: 1, reason: "unterminated string")
        expectError(#""\x""#, offset: 1, column: 2, reason: #"invalid escape sequence '\x' in string"#)
        expectError(#""\u12G4""#, offset: 1, column: 2, reason: #"invalid \u escape: expected four hexadecimal digits"#)
        expectError("tru", offset: 0, column: 1, reason: "invalid literal 'tru': expected a JSON value")
        expectError("1.", offset: 2, column: 3, reason: "unexpected end of input: expected a digit after the decimal point")
        expectError("1e+", offset: 3, column: 4, reason: "unexpected end of input: expected a digit in the exponent")
        expectError("-", offset: 1, column: 2, reason: "unexpected end of input: expected a digit after '-'")
        expectError("[", offset: 1, column: 2, reason: "unexpected end of input: expected a JSON value")
        expectError("+1", offset: 0, column: 1, reason: "unexpected character '+': expected a JSON value")
    }

    @Test("line and column count lines and Unicode scalars")
    func position() {
        expectError("[\n  1,\n  01\n]", offset: 9, line: 3, column: 3,
                    reason: "leading zeros are not allowed in numbers")
        expectError("[\"\u{E9}\", x]", offset: 7, column: 7, reason: "invalid literal 'x': expected a JSON value")
    }
}

@Suite("JSONValue")
struct JSONValueTests {
    @Test("accessors")
    func accessors() {
        let value: JSONValue = ["s": "x", "n": 2.5, "i": 3, "b": true, "a": [1], "o": ["k": nil]]
        #expect(value["s"]?.stringValue == "x")
        #expect(value["n"]?.doubleValue == 2.5)
        #expect(value["i"]?.intValue == 3)
        #expect(value["n"]?.intValue == nil)
        #expect(value["b"]?.boolValue == true)
        #expect(value["a"]?.arrayValue == [1])
        #expect(value["o"]?.objectValue == ["k": .null])
        #expect(value["o"]?["k"]?.isNull == true)
        #expect(value["missing"] == nil)
        #expect(value["s"]?.intValue == nil)
        #expect(JSONValue.string("x")["s"] == nil)
    }

    @Test("intValue is exact only within 2^53")
    func intValueRange() {
        #expect(JSONValue.number(9_007_199_254_740_992).intValue == 9_007_199_254_740_992)
        #expect(JSONValue.number(-9_007_199_254_740_992).intValue == -9_007_199_254_740_992)
        #expect(JSONValue.number(9_007_199_254_740_994).intValue == nil)
        #expect(JSONValue.number(-0.0).intValue == 0)
        #expect(JSONValue.number(.infinity).intValue == nil)
    }

    @Test("equality is exact: strings and keys compare by Unicode scalars")
    func exactEquality() {
        #expect(JSONValue.string("\u{E9}") != JSONValue.string("e\u{301}"))
        #expect(JSONValue.object(["\u{E9}": 1]) != JSONValue.object(["e\u{301}": 1]))
        #expect(JSONValue.object(["\u{E9}": 1])["e\u{301}"] == nil)
        #expect(JSONValue.number(0) == JSONValue.number(-0.0))
        let set: Set<JSONValue> = [["a": 1, "b": [true]], ["b": [true], "a": 1]]
        #expect(set.count == 1)
    }
}
