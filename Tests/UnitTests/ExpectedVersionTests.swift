import LedgerCore
import Testing

/// `ExpectedVersion`: the JSON forms of the write condition and the text `append_events` takes.
@Suite("ExpectedVersion")
struct ExpectedVersionTests {
    @Test("the three JSON forms", arguments: [
        (JSONValue.string("any"), ExpectedVersion.any),
        (.string("noStream"), .noStream),
        (.number(1), .exact(1)),
        (.number(3), .exact(3)),
        (.number(3.0), .exact(3)),
        (.number(1_000_000), .exact(1_000_000)),
        (.number(8_999_999_999_999_999), .exact(8_999_999_999_999_999)),
    ])
    func jsonForms(json: JSONValue, expected: ExpectedVersion) {
        #expect(ExpectedVersion(json: json) == expected)
    }

    @Test("parsed from JSON text", arguments: [
        (#""any""#, ExpectedVersion.any), (#""noStream""#, .noStream), ("3", .exact(3)), ("3e0", .exact(3)),
        ("30e-1", .exact(3)), ("1E2", .exact(100)),
    ])
    func fromText(text: String, expected: ExpectedVersion) throws {
        #expect(ExpectedVersion(json: try JSONParser.parse(text)) == expected)
    }

    @Test("anything else is not an expected version", arguments: [
        JSONValue.number(0), .number(-0.0), .number(-1), .number(1.5), .number(0.999), .number(9e15), .number(1e300),
        .number(.infinity), .number(.nan), .string("latest"), .string("3"), .string("ANY"), .string("Any"),
        .string("nostream"), .string("no_stream"), .string(""), .bool(true), .bool(false), .null, .array([3]),
        .object(["exact": 3]),
    ])
    func refused(json: JSONValue) {
        #expect(ExpectedVersion(json: json) == nil)
    }

    @Test("sqlText and description", arguments: [
        (ExpectedVersion.any, "any"), (.noStream, "noStream"), (.exact(1), "1"), (.exact(3), "3"),
        (.exact(42), "42"), (.exact(8_999_999_999_999_999), "8999999999999999"),
    ])
    func sqlText(version: ExpectedVersion, text: String) {
        #expect(version.sqlText == text)
        #expect(version.description == text)
        #expect("\(version)" == text)
    }

    /// append-events.sql: `st.expected !~ '^(any|noStream|[0-9]{1,18})$'` refuses the batch.
    @Test("every sqlText the JSON forms produce passes the SQL check and reads back")
    func sqlTextMatchesSQLCheck() throws {
        let sqlCheck = try Regex("^(any|noStream|[0-9]{1,18})$")
        for json: JSONValue in ["any", "noStream", 1, 2, 17, 999_999_999, 8_999_999_999_999_999] {
            let version = try #require(ExpectedVersion(json: json))
            #expect(version.sqlText.wholeMatch(of: sqlCheck) != nil, "\(version.sqlText)")
            // The text read back as JSON (a number, or a string for the two names) gives the same condition.
            let back: JSONValue = switch version {
            case .exact: try JSONParser.parse(version.sqlText)
            default: .string(version.sqlText)
            }
            #expect(ExpectedVersion(json: back) == version)
        }
    }

    @Test("equality and hashing")
    func hashable() {
        let set: Set<ExpectedVersion> = [.any, .noStream, .exact(1), .exact(1), .exact(2), .any]
        #expect(set.count == 4)
        #expect(ExpectedVersion.exact(1) != .exact(2))
        #expect(ExpectedVersion.any != .noStream)
        #expect(ExpectedVersion.noStream != .exact(0))
    }
}
