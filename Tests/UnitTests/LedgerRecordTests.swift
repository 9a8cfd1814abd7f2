import Foundation
import LedgerCore
import Testing

/// `LedgerRecord`: the bytes the ledger hashes, identical to what `ledger.append_events` builds
/// by string concatenation in SQL, and their parser.
@Suite("LedgerRecord")
struct LedgerRecordTests {
    static let recordedAt = "2026-11-22T10:15:00.123456Z"

    /// What append-events.sql builds: '{"event":' || body || ',"log":"' || log || '","position":' || pos
    /// || ',"recordedAt":"' || recorded || '","streamVersion":' || version || '}'.
    static func sqlRecord(body: String, log: String, position: Int64, recordedAt: String, streamVersion: Int64) -> String {
        #"{"event":"# + body + #","log":""# + log + #"","position":"# + String(position)
            + #","recordedAt":""# + recordedAt + #"","streamVersion":"# + String(streamVersion) + "}"
    }

    /// The record of `full` as the ledger stores it (with its `derived` member).
    static var sample: LedgerRecord {
        LedgerRecord(event: .object(TestEvents.fullStored), log: "acme", position: 42, recordedAt: recordedAt, streamVersion: 3)
    }

    @Test("canonicalBytes of the sample are exactly the string the SQL builds")
    func sampleBytes() throws {
        let expected = #"{"event":"# + EventInputTests.fullCanonical
            + #","log":"acme","position":42,"recordedAt":"2026-11-22T10:15:00.123456Z","streamVersion":3}"#
        #expect(String(decoding: Self.sample.canonicalBytes, as: UTF8.self) == expected)
        #expect(Self.sample.canonicalBytes == Array(expected.utf8))
    }

    @Test("canonicalBytes equal the SQL concatenation for the canonical event EventInput produces", arguments: [
        ("acme", Int64(1), Int64(1)),
        ("acme", 42, 3),
        ("tenant-7.prod_eu", 1_000_000, 999_999),
        ("0", 123_456_789_012, 1),
        ("a", 9_007_199_254_740_992, 9_007_199_254_740_992),
    ])
    func matchesSQL(log: String, position: Int64, streamVersion: Int64) throws {
        let input = try EventInput(json: .object(TestEvents.fullWithExpectedVersion))
        let record = LedgerRecord(event: try JSONParser.parse(input.canonicalBytes), log: log, position: position,
                                  recordedAt: Self.recordedAt, streamVersion: streamVersion)
        let sql = Self.sqlRecord(body: input.canonicalText, log: log, position: position,
                                 recordedAt: Self.recordedAt, streamVersion: streamVersion)
        #expect(String(decoding: record.canonicalBytes, as: UTF8.self) == sql)
    }

    @Test("a minimal event's record, written out in full")
    func minimalRecord() {
        let record = LedgerRecord(event: ["payload": [:], "eventId": "e"], log: "l", position: 1,
                                  recordedAt: "2026-01-01T00:00:00.000000Z", streamVersion: 1)
        #expect(String(decoding: record.canonicalBytes, as: UTF8.self)
                == #"{"event":{"eventId":"e","payload":{}},"log":"l","position":1,"recordedAt":"2026-01-01T00:00:00.000000Z","streamVersion":1}"#)
    }

    @Test("parsing round-trips")
    func roundTrip() throws {
        let parsed = try LedgerRecord(parsing: Self.sample.canonicalBytes)
        #expect(parsed == Self.sample)
        #expect(parsed.event == .object(TestEvents.fullStored))
        #expect(parsed.log == "acme")
        #expect(parsed.position == 42)
        #expect(parsed.recordedAt == Self.recordedAt)
        #expect(parsed.streamVersion == 3)
        #expect(parsed.canonicalBytes == Self.sample.canonicalBytes)
    }

    @Test("a non-canonical record parses to the same value; its canonicalBytes differ from the input")
    func nonCanonicalParses() throws {
        let text = #"{ "streamVersion": 3, "recordedAt": "2026-11-22T10:15:00.123456Z", "position": 42.0, "log": "acme", "event": {"b": 1, "a": 2} }"#
        let parsed = try LedgerRecord(parsing: Array(text.utf8))
        #expect(parsed == LedgerRecord(event: ["a": 2, "b": 1], log: "acme", position: 42, recordedAt: Self.recordedAt, streamVersion: 3))
        #expect(parsed.canonicalBytes != Array(text.utf8))
        #expect(String(decoding: parsed.canonicalBytes, as: UTF8.self)
                == #"{"event":{"a":2,"b":1},"log":"acme","position":42,"recordedAt":"2026-11-22T10:15:00.123456Z","streamVersion":3}"#)
    }

    /// The error `LedgerRecord(parsing:)` throws for `text`, or nil.
    static func refusal(_ text: String) -> LedgerError? {
        do {
            _ = try LedgerRecord(parsing: Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    /// The sample record as an object, to edit.
    static var sampleMembers: [String: JSONValue] {
        [
            "event": .object(TestEvents.fullStored), "log": "acme", "position": 42, "recordedAt": .string(recordedAt),
            "streamVersion": 3,
        ]
    }

    @Test("a record missing a key is refused", arguments: ["event", "log", "position", "recordedAt", "streamVersion"])
    func missingKey(key: String) {
        var members = Self.sampleMembers
        members[key] = nil
        let error = Self.refusal(CanonicalJSON.encodeString(.object(members)))
        #expect(error?.code == .integrityFailure, "\(String(describing: error))")
    }

    @Test("a record with an extra key is refused", arguments: ["extra", "leafHash", "Event"])
    func extraKey(key: String) {
        var members = Self.sampleMembers
        members[key] = 1
        #expect(Self.refusal(CanonicalJSON.encodeString(.object(members)))?.code == .integrityFailure)
    }

    @Test("a record with one key renamed is refused")
    func renamedKey() {
        var members = Self.sampleMembers
        members["streamVersion"] = nil
        members["stream_version"] = 3
        #expect(Self.refusal(CanonicalJSON.encodeString(.object(members)))?.code == .integrityFailure)
    }

    @Test("a record whose event is not an object is refused", arguments: [
        JSONValue.array([]), .string("{}"), .null, .number(1), .bool(true),
    ])
    func eventNotObject(event: JSONValue) {
        var members = Self.sampleMembers
        members["event"] = event
        #expect(Self.refusal(CanonicalJSON.encodeString(.object(members)))?.code == .integrityFailure)
    }

    @Test("a record with a member of the wrong type is refused", arguments: [
        ("log", JSONValue.number(1)), ("position", .string("42")), ("recordedAt", .number(1)),
        ("streamVersion", .string("3")), ("log", .null), ("position", .null),
    ])
    func wrongType(key: String, value: JSONValue) {
        var members = Self.sampleMembers
        members[key] = value
        #expect(Self.refusal(CanonicalJSON.encodeString(.object(members)))?.code == .integrityFailure)
    }

    @Test("bytes that are not a JSON object are refused", arguments: [
        "", "not json", "[]", "null", #""record""#, #"{"event":{}"#, #"{"event":{},"event":{}}"#,
    ])
    func notAnObject(text: String) {
        let error = Self.refusal(text)
        #expect(error?.code == .integrityFailure, "\(String(describing: error))")
        #expect(error?.message.isEmpty == false)
    }

    // MARK: Found by these tests, fixed

    /// The ledger only ever writes integer positions and stream versions. `LedgerRecord(parsing:)`
    /// converts with `Int64(position)`, which truncates 42.5 to 42, so the record reads as
    /// position 42 and a verifier given column position 42 finds no problem.
    @Test("a fractional position or stream version is refused", arguments: [
        #"{"event":{},"log":"acme","position":42.5,"recordedAt":"2026-11-22T10:15:00.123456Z","streamVersion":3}"#,
        #"{"event":{},"log":"acme","position":42,"recordedAt":"2026-11-22T10:15:00.123456Z","streamVersion":3.9}"#,
    ])
    func fractionalNumbers(text: String) {
        #expect(Self.refusal(text)?.code == .integrityFailure)
    }

    /// `Int64(position)` on a Double out of Int64's range (1e19, -1e19, 1e300) is a runtime trap:
    /// the process crashes instead of throwing. Run in a child process.
    @Test("a position out of Int64 range is refused, not a crash")
    func outOfRangePosition() async {
        await #expect(processExitsWith: .success) {
            let text = #"{"event":{},"log":"acme","position":1e19,"recordedAt":"2026-11-22T10:15:00.123456Z","streamVersion":1}"#
            // Exits 0 only if the record is refused as an integrity failure; 2 if it was accepted.
            do {
                _ = try LedgerRecord(parsing: Array(text.utf8))
                exit(2)
            } catch {
                if (error as? LedgerError)?.code != .integrityFailure { exit(3) }
            }
        }
    }

    @Test("a stream version out of Int64 range is refused, not a crash")
    func outOfRangeStreamVersion() async {
        await #expect(processExitsWith: .success) {
            let text = #"{"event":{},"log":"acme","position":1,"recordedAt":"2026-11-22T10:15:00.123456Z","streamVersion":-1e300}"#
            // Exits 0 only if the record is refused as an integrity failure; 2 if it was accepted.
            do {
                _ = try LedgerRecord(parsing: Array(text.utf8))
                exit(2)
            } catch {
                if (error as? LedgerError)?.code != .integrityFailure { exit(3) }
            }
        }
    }
}
