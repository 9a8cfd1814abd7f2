import Foundation
import LedgerCore
import Testing

/// RFC 8785 canonicalization, checked against the shared cyberphone vectors and the RFC's text.
@Suite("CanonicalJSON")
struct CanonicalJSONTests {
    // MARK: Vendored vectors (Tests/Fixtures/third-party/jcs)

    /// Names `X` of the `input/X.json` vectors, sorted.
    static func vectorNames() throws -> [String] {
        let input = try TestData.directory("jcs").appendingPathComponent("input")
        return try FileManager.default.contentsOfDirectory(atPath: input.path)
            .filter { $0.hasSuffix(".json") }
            .map { String($0.dropLast(".json".count)) }
            .sorted()
    }

    /// Decodes `outhex/X.txt`: two-digit hex bytes separated by spaces and newlines.
    static func decodeHex(_ text: String) throws -> [UInt8] {
        try text.split(whereSeparator: \.isWhitespace).map { token in
            guard token.count == 2, let byte = UInt8(token, radix: 16) else {
                throw TestData.NotFound(description: "malformed hex byte \(token)")
            }
            return byte
        }
    }

    @Test("the jcs vector set is present and complete")
    func vectorSetIsComplete() throws {
        let names = try Self.vectorNames()
        #expect(!names.isEmpty)
        let directory = try TestData.directory("jcs")
        let files = FileManager.default
        for (folder, suffix) in [("output", ".json"), ("outhex", ".txt")] {
            let present = try files.contentsOfDirectory(atPath: directory.appendingPathComponent(folder).path)
                .map { String($0.dropLast(suffix.count)) }
                .sorted()
            #expect(present == names, "\(folder)/ does not match input/")
        }
    }

    @Test("vector canonicalizes to output/X.json and outhex/X.txt", arguments: try vectorNames())
    func vector(_ name: String) throws {
        let directory = try TestData.directory("jcs")
        let input = try TestData.bytes(directory.appendingPathComponent("input/\(name).json"))
        let expected = try TestData.bytes(directory.appendingPathComponent("output/\(name).json"))
        let hexText = try TestData.bytes(directory.appendingPathComponent("outhex/\(name).txt"))
        let expectedFromHex = try Self.decodeHex(String(decoding: hexText, as: UTF8.self))
        #expect(!expected.isEmpty)
        #expect(expectedFromHex == expected, "outhex/\(name).txt disagrees with output/\(name).json")

        let actual = CanonicalJSON.encode(try JSONParser.parse(input))
        #expect(actual == expected,
                "got \(String(decoding: actual, as: UTF8.self)), want \(String(decoding: expected, as: UTF8.self))")
        #expect(actual == expectedFromHex)
        #expect(CanonicalJSON.encode(try JSONParser.parse(actual)) == actual, "not idempotent")
    }

    // MARK: RFC 8785 Appendix B: number serialization

    static let appendixB: [(UInt64, String)] = [
        (0x0000_0000_0000_0000, "0"),
        (0x8000_0000_0000_0000, "0"),
        (0x0000_0000_0000_0001, "5e-324"),
        (0x8000_0000_0000_0001, "-5e-324"),
        (0x7FEF_FFFF_FFFF_FFFF, "1.7976931348623157e+308"),
        (0xFFEF_FFFF_FFFF_FFFF, "-1.7976931348623157e+308"),
        (0x4340_0000_0000_0000, "9007199254740992"),
        (0xC340_0000_0000_0000, "-9007199254740992"),
        (0x4430_0000_0000_0000, "295147905179352830000"),
        (0x44B5_2D02_C7E1_4AF5, "9.999999999999997e+22"),
        (0x44B5_2D02_C7E1_4AF6, "1e+23"),
        (0x44B5_2D02_C7E1_4AF7, "1.0000000000000001e+23"),
        (0x444B_1AE4_D6E2_EF4E, "999999999999999700000"),
        (0x444B_1AE4_D6E2_EF4F, "999999999999999900000"),
        (0x444B_1AE4_D6E2_EF50, "1e+21"),
        (0x3EB0_C6F7_A0B5_ED8C, "9.999999999999997e-7"),
        (0x3EB0_C6F7_A0B5_ED8D, "0.000001"),
        (0x41B3_DE43_5555_5553, "333333333.3333332"),
        (0x41B3_DE43_5555_5554, "333333333.33333325"),
        (0x41B3_DE43_5555_5555, "333333333.3333333"),
        (0x41B3_DE43_5555_5556, "333333333.3333334"),
        (0x41B3_DE43_5555_5557, "333333333.33333343"),
        (0xBECB_F647_612F_3696, "-0.0000033333333333333333"),
        (0x4314_3FF3_C1CB_0959, "1424953923781206.2"),
    ]

    @Test("RFC 8785 Appendix B number", arguments: appendixB)
    func appendixBNumber(bits: UInt64, expected: String) {
        let value = Double(bitPattern: bits)
        #expect(CanonicalJSON.numberString(value) == expected)
        #expect(CanonicalJSON.encodeString(.number(value)) == expected)
        #expect(Double(expected) == value, "expected text does not round-trip")
    }

    /// The ECMAScript layout boundaries (1e21 and 1e-6) and ordinary values, plus doubles whose
    /// expected text was produced by V8's `String(x)`.
    static let esNumbers: [(Double, String)] = [
        (1, "1"), (-1, "-1"), (100, "100"), (1.5, "1.5"), (-1.5, "-1.5"), (0.1, "0.1"),
        (0.5, "0.5"), (4.35, "4.35"), (123456789, "123456789"),
        (1e20, "100000000000000000000"), (1e21, "1e+21"), (1.5e21, "1.5e+21"),
        (1e-6, "0.000001"), (1.2345e-5, "0.000012345"), (1e-7, "1e-7"), (1.5e-7, "1.5e-7"),
        (1e100, "1e+100"), (2.2250738585072014e-308, "2.2250738585072014e-308"),
        (9007199254740994, "9007199254740994"),
        (Double(bitPattern: 0x42BE_9969_4C40_9157), "33644245434513.34"),
        (Double(bitPattern: 0x9AF5_FBAD_B564_D4B5), "-8.476408956182136e-179"),
        (Double(bitPattern: 0x9198_0A8F_BEC2_AA24), "-6.49501839560985e-224"),
        (Double(bitPattern: 0xFABA_D6C4_FB54_ABC2), "-1.5589829042475865e+283"),
        (Double(bitPattern: 0xC2F1_51EF_A7FE_7F82), "-304697772599288.1"),
        (Double(bitPattern: 0xBEF3_D04A_1908_B668), "-0.000018895750658545768"),
        (Double(bitPattern: 0xC439_D36D_0DCC_E79B), "-476403450130913200000"),
        (Double(bitPattern: 0x3E83_69CC_A427_10E7), "1.4464019855280415e-7"),
        (Double(bitPattern: 0x3E30_BF25_5655_F617), "3.899136435056381e-9"),
    ]

    @Test("ECMAScript Number::toString layout", arguments: esNumbers)
    func esNumber(value: Double, expected: String) {
        #expect(CanonicalJSON.numberString(value) == expected)
    }

    @Test("numbers round-trip and switch to exponent form exactly outside [1e-6, 1e21)")
    func numberRoundTripProperty() {
        var generator = SplitMix64(seed: 8785)
        var checked = 0
        while checked < 20_000 {
            let value = Double(bitPattern: generator.next())
            guard value.isFinite, value != 0 else { continue }
            checked += 1
            let text = CanonicalJSON.numberString(value)
            #expect(Double(text)?.bitPattern == value.bitPattern, "\(text) does not round-trip")
            let exponential = text.contains("e")
            let plain = value.magnitude >= 1e-6 && value.magnitude < 1e21
            #expect(exponential != plain, "\(text) has the wrong layout")
        }
    }

    @Test("NaN cannot be canonicalized")
    func nanTraps() async {
        await #expect(processExitsWith: .failure) {
            _ = CanonicalJSON.encode(.number(.nan))
        }
    }

    // MARK: RFC 8785 §3.2.3: sorting

    @Test("RFC 8785 3.2.3 sorting example orders keys by UTF-16 code units")
    func rfcSortingExample() throws {
        let input = #"""
        {
          "\u20ac": "Euro Sign",
          "\r": "Carriage Return",
          "\ufb33": "Hebrew Letter Dalet With Dagesh",
          "1": "One",
          "\ud83d\ude00": "Emoji: Grinning Face",
          "\u0080": "Control",
          "\u00f6": "Latin Small Letter O With Diaeresis"
        }
        """#
        let expected = "{\"\\r\":\"Carriage Return\",\"1\":\"One\",\"\u{80}\":\"Control\","
            + "\"\u{F6}\":\"Latin Small Letter O With Diaeresis\",\"\u{20AC}\":\"Euro Sign\","
            + "\"\u{1F600}\":\"Emoji: Grinning Face\",\"\u{FB33}\":\"Hebrew Letter Dalet With Dagesh\"}"
        let actual = CanonicalJSON.encode(try JSONParser.parse(input))
        #expect(actual == Array(expected.utf8), "got \(String(decoding: actual, as: UTF8.self))")
    }

    @Test("a supplementary-plane key sorts before U+FB33 (UTF-16, not scalar order)")
    func utf16OrderNotScalarOrder() {
        let value: JSONValue = ["\u{FB33}": 1, "\u{1F600}": 2, "\u{FFFF}": 3]
        #expect(CanonicalJSON.encodeString(value) == "{\"\u{1F600}\":2,\"\u{FB33}\":1,\"\u{FFFF}\":3}")
    }

    @Test("keys sort by code unit, not by locale or by length")
    func plainKeyOrder() {
        let value: JSONValue = ["b": 1, "B": 2, "aa": 3, "a": 4, "": 5, "10": 6, "9": 7]
        #expect(CanonicalJSON.encodeString(value) == #"{"":5,"10":6,"9":7,"B":2,"a":4,"aa":3,"b":1}"#)
    }

    // MARK: RFC 8785 §3.2.2.2: strings

    /// The expected escape of each of U+0000...U+001F.
    static let controlEscapes: [String] = [
        #"\u0000"#, #"\u0001"#, #"\u0002"#, #"\u0003"#, #"\u0004"#, #"\u0005"#, #"\u0006"#, #"\u0007"#,
        #"\b"#, #"\t"#, #"\n"#, #"\u000b"#, #"\f"#, #"\r"#, #"\u000e"#, #"\u000f"#,
        #"\u0010"#, #"\u0011"#, #"\u0012"#, #"\u0013"#, #"\u0014"#, #"\u0015"#, #"\u0016"#, #"\u0017"#,
        #"\u0018"#, #"\u0019"#, #"\u001a"#, #"\u001b"#, #"\u001c"#, #"\u001d"#, #"\u001e"#, #"\u001f"#,
    ]

    @Test("every control character is escaped as RFC 8785 requires")
    func controlCharacters() throws {
        #expect(Self.controlEscapes.count == 0x20)
        for (code, escape) in Self.controlEscapes.enumerated() {
            let character = String(Unicode.Scalar(UInt8(code)))
            #expect(CanonicalJSON.encodeString(.string(character)) == "\"\(escape)\"", "U+00\(String(code, radix: 16))")
            // The escape also parses back to the same character.
            #expect(try JSONParser.parse("\"\(escape)\"") == .string(character))
        }
    }

    @Test("quote and backslash are escaped; everything else is literal UTF-8")
    func literalCharacters() {
        #expect(CanonicalJSON.encode(.string("\"\\")) == Array(#""\"\\""#.utf8))
        let literal = "/\u{7F}\u{80}\u{E9}\u{2028}\u{FEFF}\u{1F600}'<>&"
        #expect(CanonicalJSON.encode(.string(literal)) == [0x22] + Array(literal.utf8) + [0x22])
        #expect(CanonicalJSON.encode(.string("\u{7F}")) == [0x22, 0x7F, 0x22])
        #expect(CanonicalJSON.encode(.string("\u{1F600}")) == [0x22, 0xF0, 0x9F, 0x98, 0x80, 0x22])
    }

    @Test("strings are not Unicode-normalized")
    func noNormalization() throws {
        let decomposed = try JSONParser.parse(#""A\u030a""#)
        #expect(CanonicalJSON.encode(decomposed) == [0x22, 0x41, 0xCC, 0x8A, 0x22])
        #expect(CanonicalJSON.encode(.string("\u{C5}")) == [0x22, 0xC3, 0x85, 0x22])
    }

    // MARK: Structure and idempotence

    @Test("literals, nesting and no whitespace")
    func structure() {
        let value: JSONValue = ["z": [nil, true, false, [], [:]], "a": ["y": 1.25, "x": "s"]]
        #expect(CanonicalJSON.encodeString(value) == #"{"a":{"x":"s","y":1.25},"z":[null,true,false,[],{}]}"#)
    }

    @Test("canonical output re-parses and re-encodes identically")
    func idempotence() throws {
        let texts = [
            #"  { "b" : [ 1.0 , 2e0, -0, 0.000001, 1E-7, 1e21 ], "a" : "\u00e9\n\u001f" , "c": {"\r": null} } "#,
            #"[333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001, 9007199254740992]"#,
            #""\ud83d\ude00\u2028\/""#,
            "-1.5e-300",
        ]
        for text in texts {
            let first = CanonicalJSON.encode(try JSONParser.parse(text))
            let reparsed = try JSONParser.parse(first)
            #expect(CanonicalJSON.encode(reparsed) == first)
            #expect(reparsed == (try JSONParser.parse(text)))
        }
    }

    @Test("a canonical integer above 2^53 (e.g. 1e20) parses back to the same value: the canonical form of every accepted text parses")
    func largeIntegralCanonicalFormParsesAgain() throws {
        let canonical = CanonicalJSON.encodeString(try JSONParser.parse("1e20"))
        #expect(canonical == "100000000000000000000")
        #expect(try JSONParser.parse(canonical) == .number(1e20))
        // An integer literal that is not the canonical form of its double still loses digits: refused.
        #expect(throws: JSONParseError.self) { try JSONParser.parse("100000000000000000001") }
    }
}

/// A small deterministic generator (SplitMix64) so property tests are reproducible.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
