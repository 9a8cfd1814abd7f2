import Foundation
import LedgerCore
import Testing

/// `EventInput`: one NDJSON line checked end to end, canonicalized, with `expectedVersion` taken out.
@Suite("EventInput")
struct EventInputTests {
    /// The RFC 8785 form of `TestEvents.full`, written out by hand (keys sorted, no whitespace).
    static let fullCanonical = #"{"actor":{"id":"device:7f3a","kind":"app"},"app":{"appVersion":"2.3.1","bundleId":"com.example.kids","osVersion":"26.1","platform":"iOS"},"causationId":"3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b","correlationId":"flow-42","eventId":"0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f","jurisdiction":{"basis":"asserted","code":"US-TX"},"occurredAt":"2026-11-22T10:15:00Z","payload":{"ageRangeDeclaration":"selfDeclared","lowerBound":13,"upperBound":15},"schemaVersion":1,"stream":"subject-p_4f1c","subject":"p_4f1c","type":"AgeRangeShared"}"#

    // MARK: Accepted

    @Test("a full event written by hand, with whitespace and expectedVersion, parses and canonicalizes")
    func fullEventFromText() throws {
        let text = """
            { "type": "AgeRangeShared", "eventId": "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f",
              "expectedVersion": 3,
              "stream": "subject-p_4f1c", "schemaVersion": 1.0, "occurredAt": "2026-11-22T10:15:00Z",
              "subject": "p_4f1c", "actor": {"kind": "app", "id": "device:7f3a"},
              "app": {"platform": "iOS", "bundleId": "com.example.kids", "appVersion": "2.3.1", "osVersion": "26.1"},
              "jurisdiction": {"code": "US-TX", "basis": "asserted"},
              "correlationId": "flow-42", "causationId": "3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b",
              "payload": {"upperBound": 15.0, "lowerBound": 13, "ageRangeDeclaration": "selfDeclared"} }
            """
        let input = try EventInput(line: Array(text.utf8))
        #expect(input.canonicalText == Self.fullCanonical)
        #expect(input.canonicalBytes == Array(Self.fullCanonical.utf8))
        #expect(input.expectedVersion == .exact(3))

        // The typed envelope is the one EventEnvelopeTests checks field by field.
        #expect(input.envelope == (try EventEnvelope(validating: TestEvents.full)))
    }

    @Test("canonicalBytes are CanonicalJSON.encode of the object without expectedVersion")
    func canonicalBytesDropExpectedVersion() throws {
        let input = try EventInput(json: .object(TestEvents.fullWithExpectedVersion))
        #expect(input.canonicalBytes == CanonicalJSON.encode(.object(TestEvents.full)))
        #expect(input.canonicalText == Self.fullCanonical)
        #expect(!input.canonicalText.contains("expectedVersion"))
        // The canonical bytes are a fixed point: parsing them again gives the same bytes.
        let again = try EventInput(line: input.canonicalBytes)
        #expect(again.canonicalBytes == input.canonicalBytes)
        #expect(again.envelope == input.envelope)
    }

    @Test("init(json:) and init(line:) agree")
    func jsonAndLineAgree() throws {
        let fromJSON = try EventInput(json: .object(TestEvents.fullWithExpectedVersion))
        let fromLine = try EventInput(line: TestEvents.line(TestEvents.fullWithExpectedVersion))
        #expect(fromJSON.canonicalBytes == fromLine.canonicalBytes)
        #expect(fromJSON.envelope == fromLine.envelope)
        #expect(fromJSON.expectedVersion == fromLine.expectedVersion)
    }

    @Test("expectedVersion is parsed and removed", arguments: [
        (#""any""#, ExpectedVersion.any),
        (#""noStream""#, ExpectedVersion.noStream),
        ("3", ExpectedVersion.exact(3)),
        ("1", ExpectedVersion.exact(1)),
        ("3.0", ExpectedVersion.exact(3)),
        ("4096", ExpectedVersion.exact(4096)),
    ])
    func expectedVersionForms(json: String, expected: ExpectedVersion) throws {
        var text = String(decoding: TestEvents.line(TestEvents.full), as: UTF8.self)
        text.removeLast()  // the closing brace
        text += #","expectedVersion":"# + json + "}"
        let input = try EventInput(line: Array(text.utf8))
        #expect(input.expectedVersion == expected)
        #expect(input.canonicalText == Self.fullCanonical)
    }

    @Test("without expectedVersion the condition is any")
    func expectedVersionDefaultsToAny() throws {
        let input = try EventInput(json: .object(TestEvents.full))
        #expect(input.expectedVersion == .any)
        #expect(input.canonicalText == Self.fullCanonical)
    }

    @Test("a minimal event (required fields only) parses with nil optionals")
    func minimalEvent() throws {
        let input = try EventInput(json: .object(TestEvents.minimal))
        #expect(input.envelope.subject == nil)
        #expect(input.envelope.app == nil)
        #expect(input.envelope.jurisdiction == nil)
        #expect(input.envelope.actor.id == nil)
        #expect(input.canonicalText == #"{"actor":{"kind":"subject"},"eventId":"3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b","occurredAt":"2026-11-22T10:15:00Z","payload":{},"schemaVersion":1,"stream":"subject-p_1","type":"AgeRangeDeclined"}"#)
    }

    @Test("string escapes in the payload are canonicalized (RFC 8785)")
    func payloadCanonicalization() throws {
        var text = String(decoding: TestEvents.line(TestEvents.minimal), as: UTF8.self)
        text = text.replacingOccurrences(of: #""payload":{}"#,
                                         with: #""payload":{"z":1e2,"a":"\u00e9\/","m":[0.50,-0]}"#)
        let input = try EventInput(line: Array(text.utf8))
        #expect(input.canonicalText.contains(#""payload":{"a":"é/","m":[0.5,0],"z":100}"#),
                "\(input.canonicalText)")
    }

    // MARK: Refused: not an event

    @Test("malformed JSON is invalid-json", arguments: [
        #"{"eventId":"#,
        "",
        "   ",
        #"{"eventId":"0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f",}"#,
        "{'type':'AgeRangeShared'}",
        #"{"a":1,"a":2}"#,
        #"{"a":1} {"b":2}"#,
        "{\"a\":NaN}",
    ])
    func malformedJSON(text: String) {
        let error = TestEvents.refusal(text: text)
        expectRefused(error, .invalidJSON, field: nil)
    }

    @Test("invalid UTF-8 is invalid-json")
    func invalidUTF8() {
        var bytes = TestEvents.line(TestEvents.minimal)
        // Put a lone continuation byte inside the stream name.
        let index = bytes.firstIndex(of: UInt8(ascii: "p"))!
        bytes[index] = 0x80
        expectRefused(TestEvents.refusal(line: bytes), .invalidJSON, field: nil)
    }

    @Test("a JSON value that is not an object is invalid-json", arguments: [
        "[]", #"[{"eventId":"x"}]"#, #""event""#, "42", "null", "true",
    ])
    func notAnObject(text: String) {
        let error = TestEvents.refusal(text: text)
        expectRefused(error, .invalidJSON, field: nil)
        #expect(error?.message.contains("object") == true)
    }

    // MARK: Refused: envelope

    @Test("a missing required field is missing-field, naming it", arguments: [
        "eventId", "stream", "type", "schemaVersion", "occurredAt", "actor", "actor.kind", "payload",
    ])
    func missingRequiredField(path: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: path, to: nil)), .missingField, field: path)
    }

    @Test("a null required string or object counts as missing", arguments: [
        "eventId", "stream", "type", "actor", "actor.kind", "payload",
    ])
    func nullRequiredField(path: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: path, to: .null)), .missingField, field: path)
    }

    @Test("an unknown top-level field is unknown-field, naming it")
    func unknownTopLevelField() {
        let error = TestEvents.refusal(TestEvents.full(setting: "color", to: "blue"))
        expectRefused(error, .unknownField, field: "color")
        #expect(error?.hint?.contains("payload") == true)
    }

    @Test("of several unknown fields the first in sorted order is named")
    func severalUnknownFields() {
        var object = TestEvents.full
        object["zeta"] = 1
        object["alpha"] = 2
        expectRefused(TestEvents.refusal(object), .unknownField, field: "alpha")
    }

    @Test("a field the ledger sets is unknown-field, saying the ledger sets it",
          arguments: ["recordedAt", "position", "streamVersion", "log", "leafHash", "chainHash"])
    func ledgerAssignedField(key: String) {
        let error = TestEvents.refusal(TestEvents.full(setting: key, to: key == "recordedAt" ? "2026-11-22T10:15:00Z" : 7))
        expectRefused(error, .unknownField, field: key)
        #expect(error?.message.contains("set by the ledger") == true, "\(String(describing: error))")
        #expect(error?.message.contains("unknown envelope field") == false)
    }

    @Test("an unknown nested envelope field is unknown-field with its path", arguments: [
        ("actor.name", JSONValue.string("Alice")),
        ("app.foo", JSONValue.number(1)),
        ("jurisdiction.region", JSONValue.string("TX")),
    ])
    func unknownNestedField(path: String, value: JSONValue) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: path, to: value)), .unknownField, field: path)
    }

    @Test("unknown fields inside payload are allowed")
    func payloadIsOpen() throws {
        let input = try EventInput(json: .object(TestEvents.full(payload: ["anything": ["goes": [1, 2, 3]]])))
        #expect(input.canonicalText.contains(#""payload":{"anything":{"goes":[1,2,3]}}"#))
    }

    @Test("eventId must be a lowercase UUID", arguments: [
        "0B7C6F3E-2A4D-4C1B-9E8F-1A2B3C4D5E6F",
        "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6F",
        "0b7c6f3e2a4d4c1b9e8f1a2b3c4d5e6f",
        "{0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f}",
        "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6",
        "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6g",
        "0b7c6f3e_2a4d-4c1b-9e8f-1a2b3c4d5e6f",
        "",
    ])
    func badEventId(eventId: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "eventId", to: .string(eventId))),
                      .invalidField, field: "eventId")
    }

    @Test("eventId of another JSON type is invalid-field")
    func eventIdNotString() {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "eventId", to: 42)), .invalidField, field: "eventId")
    }

    @Test("stream must be 1 to 200 of [A-Za-z0-9._:-], starting alphanumeric", arguments: [
        "subject p_4f1c", "subject/p_4f1c", "-subject", "_subject", ".subject", ":subject", "",
        "subject-é", "subject\n", String(repeating: "s", count: 201), "subject#1",
    ])
    func badStream(stream: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "stream", to: .string(stream))),
                      .invalidField, field: "stream")
    }

    @Test("valid streams are accepted", arguments: [
        "s", "subject-p_4f1c", "question-3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b", "exception-1", "A.b_c:d-e",
        "0start", String(repeating: "s", count: 200),
    ])
    func goodStream(stream: String) throws {
        let input = try EventInput(json: .object(TestEvents.full(setting: "stream", to: .string(stream))))
        #expect(input.envelope.stream == stream)
    }

    @Test("type must start with an uppercase letter and be alphanumeric", arguments: [
        "ageRangeShared", "1AgeRange", "Age-Range", "Age Range", "Age_Range", "", "ÄgeRange",
        "A" + String(repeating: "b", count: 64),
    ])
    func badType(type: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "type", to: .string(type))),
                      .invalidField, field: "type")
    }

    @Test("valid types are accepted", arguments: ["A", "AgeRangeShared", "V2Event", "A" + String(repeating: "b", count: 63)])
    func goodType(type: String) throws {
        let input = try EventInput(json: .object(TestEvents.full(setting: "type", to: .string(type))))
        #expect(input.envelope.type == type)
    }

    @Test("schemaVersion must be an integer from 1 to 999999", arguments: [
        JSONValue.number(0), .number(1.5), .string("1"), .number(-1), .number(1_000_000), .bool(true), .null,
        .array([1]),
    ])
    func badSchemaVersion(value: JSONValue) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "schemaVersion", to: value)),
                      .invalidField, field: "schemaVersion")
    }

    @Test("schemaVersion bounds are accepted", arguments: [1, 2, 999_999])
    func goodSchemaVersion(version: Int) throws {
        let input = try EventInput(json: .object(TestEvents.full(setting: "schemaVersion", to: .number(Double(version)))))
        #expect(input.envelope.schemaVersion == version)
    }

    @Test("occurredAt must be an RFC 3339 date-time with a zone and a real date", arguments: [
        "2026-11-22T10:15:00", "2026-02-30T10:15:00Z", "2026-13-01T10:15:00Z", "2026-11-22", "2026-11-22 10:15:00Z",
        "1732270500", "",
    ])
    func badOccurredAt(text: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "occurredAt", to: .string(text))),
                      .invalidField, field: "occurredAt")
    }

    @Test("occurredAt as a number is invalid-field")
    func occurredAtNotString() {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "occurredAt", to: 1_732_270_500)),
                      .invalidField, field: "occurredAt")
    }

    @Test("app.platform must be one of the listed platforms", arguments: ["ios", "IOS", "Android", "windows", ""])
    func badPlatform(platform: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "app.platform", to: .string(platform))),
                      .invalidField, field: "app.platform")
    }

    @Test("jurisdiction.code must be ISO 3166 or EU", arguments: [
        "us", "USA", "U", "US-", "US-tx", "US_TX", "U1", "1S", "US-TEXA", "eu", "",
    ])
    func badJurisdictionCode(code: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "jurisdiction.code", to: .string(code))),
                      .invalidField, field: "jurisdiction.code")
    }

    @Test("actor.kind must be one of the listed kinds", arguments: ["App", "user", "admin", ""])
    func badActorKind(kind: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "actor.kind", to: .string(kind))),
                      .invalidField, field: "actor.kind")
    }

    @Test("pseudonymous ids refuse e-mail addresses and names with spaces", arguments: [
        ("subject", "alice@example.com"), ("actor.id", "Alice Smith"), ("correlationId", "a/b"),
        ("causationId", String(repeating: "c", count: 129)),
    ])
    func badIdentifier(path: String, value: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: path, to: .string(value))),
                      .invalidField, field: path)
    }

    @Test("payload, actor, app and jurisdiction must be objects", arguments: ["payload", "actor", "app", "jurisdiction"])
    func nonObjectContainer(path: String) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: path, to: ["not", "an", "object"])),
                      .invalidField, field: path)
    }

    // MARK: Refused: expectedVersion

    @Test("a bad expectedVersion is invalid-field", arguments: [
        JSONValue.number(0), .number(-1), .string("latest"), .number(1.5), .string("3"), .string("Any"),
        .string("nostream"), .bool(true), .null, .array([]), .object([:]), .number(9e15),
    ])
    func badExpectedVersion(value: JSONValue) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "expectedVersion", to: value)),
                      .invalidField, field: "expectedVersion")
    }

    // MARK: Size

    /// `full` with `payload.pad` a string of `n` ASCII letters, and its canonical size.
    static func padded(_ n: Int) -> (object: [String: JSONValue], size: Int) {
        let object = TestEvents.full(payload: ["pad": .string(String(repeating: "x", count: n))])
        return (object, CanonicalJSON.encode(.object(object)).count)
    }

    @Test("an event over 64 KiB is record-too-large")
    func tooLarge() {
        let error = TestEvents.refusal(Self.padded(70_000).object)
        expectRefused(error, .recordTooLarge, field: nil)
        #expect(error?.message.contains("65536") == true)
    }

    @Test("exactly 65536 canonical bytes pass; 65537 do not")
    func sizeBoundary() throws {
        let base = Self.padded(0).size
        let (atLimit, atSize) = Self.padded(65_536 - base)
        #expect(atSize == 65_536)
        #expect(EventInput.maxEventBytes == 65_536)
        let input = try EventInput(json: .object(atLimit))
        #expect(input.canonicalBytes.count == 65_536)

        let (over, overSize) = Self.padded(65_537 - base)
        #expect(overSize == 65_537)
        expectRefused(TestEvents.refusal(over), .recordTooLarge, field: nil)
    }

    @Test("the limit is on canonical bytes, not on the line: whitespace does not count")
    func sizeIsCanonical() throws {
        let base = Self.padded(0).size
        let object = Self.padded(65_536 - base).object
        var text = String(decoding: TestEvents.line(object), as: UTF8.self)
        text = String(repeating: " ", count: 1_000) + text + String(repeating: "\n", count: 1_000)
        #expect(text.utf8.count > 65_536)
        let input = try EventInput(line: Array(text.utf8))
        #expect(input.canonicalBytes.count == 65_536)
    }

    @Test("the expectedVersion member does not count towards the size")
    func expectedVersionNotCounted() throws {
        let base = Self.padded(0).size
        var object = Self.padded(65_536 - base).object
        object["expectedVersion"] = "noStream"
        #expect(CanonicalJSON.encode(.object(object)).count > 65_536)
        let input = try EventInput(json: .object(object))
        #expect(input.canonicalBytes.count == 65_536)
        #expect(input.expectedVersion == .noStream)
    }

    // MARK: Order of checks

    @Test("forbidden personal data is reported before the size limit")
    func forbiddenBeforeSize() {
        let object = TestEvents.full(payload: ["birthDate": "2014-01-01", "pad": .string(String(repeating: "x", count: 70_000))])
        expectRefused(TestEvents.refusal(object), .forbiddenPersonalData, field: "payload.birthDate")
    }

    @Test("the envelope is checked before expectedVersion")
    func envelopeBeforeExpectedVersion() {
        var object = TestEvents.full(setting: "type", to: "lowercase")
        object["expectedVersion"] = "latest"
        expectRefused(TestEvents.refusal(object), .invalidField, field: "type")
    }
}
