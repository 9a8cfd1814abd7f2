import Foundation
import LedgerCore
import Testing

/// `EventInput`: one NDJSON line checked end to end, canonicalized, with `expectedVersion` taken out.
@Suite("EventInput")
struct EventInputTests {
    /// The RFC 8785 form of `TestEvents.fullStored` (`full` as the ledger stores it), written out
    /// by hand (keys sorted, no whitespace): the client's members plus `derived`
    /// (`TestEvents.fullDerived`, worked out there), which sorts between `correlationId` and `eventId`.
    static let fullCanonical = #"{"actor":{"id":"device:7f3a","kind":"app"},"app":{"appVersion":"2.3.1","bundleId":"com.example.kids","osVersion":"26.1","platform":"iOS"},"causationId":"3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b","correlationId":"flow-42","derived":{"legalCategory":"13to15","verifiedAdult":false},"eventId":"0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f","jurisdiction":{"basis":"asserted","code":"US-TX"},"occurredAt":"2026-11-22T10:15:00Z","payload":{"ageRangeDeclaration":"selfDeclared","lowerBound":13,"upperBound":15},"schemaVersion":1,"stream":"subject-p_4f1c","subject":"p_4f1c","type":"AgeRangeShared"}"#

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

    @Test("canonicalBytes are CanonicalJSON.encode of the object without expectedVersion, with derived added")
    func canonicalBytesDropExpectedVersion() throws {
        let input = try EventInput(json: .object(TestEvents.fullWithExpectedVersion))
        #expect(input.canonicalBytes == CanonicalJSON.encode(.object(TestEvents.fullStored)))
        #expect(input.canonicalText == Self.fullCanonical)
        #expect(!input.canonicalText.contains("expectedVersion"))
        #expect(.object(input.catalogued.derived) == TestEvents.fullDerived)
        // The canonical bytes are a fixed point once `derived` is taken out again: the ledger
        // derives the same facts and gives the same bytes.
        guard case .object(var members) = try JSONParser.parse(input.canonicalBytes) else {
            Issue.record("canonical bytes are not an object")
            return
        }
        #expect(members.removeValue(forKey: "derived") == TestEvents.fullDerived)
        let again = try EventInput(json: .object(members))
        #expect(again.canonicalBytes == input.canonicalBytes)
        #expect(again.envelope == input.envelope)
        // Sent back as they are, the bytes are refused: `derived` is the ledger's to set.
        let resent = TestEvents.refusal(line: input.canonicalBytes)
        expectRefused(resent, .unknownField, field: "derived")
        #expect(resent?.message.contains("set by the ledger") == true)
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

    @Test("string escapes, number forms and member order in the payload are canonicalized (RFC 8785)")
    func payloadCanonicalization() throws {
        // A free-text field (AgeRangeRequestFailed.detail) with escapes, members out of order.
        var text = String(decoding: TestEvents.line(TestEvents.minimal), as: UTF8.self)
        text = text.replacingOccurrences(of: #""type":"AgeRangeDeclined""#, with: #""type":"AgeRangeRequestFailed""#)
        text = text.replacingOccurrences(of: #""payload":{}"#,
                                         with: #""payload":{"error":"notAvailable","detail":"caf\u00e9 \/ \u0041"}"#)
        let failed = try EventInput(line: Array(text.utf8))
        #expect(failed.canonicalText.contains(#""payload":{"detail":"café / A","error":"notAvailable"}"#),
                "\(failed.canonicalText)")

        // Integers written with an exponent, a fraction of zero and a negative exponent
        // (AgeRangeRequested.ageGates), members out of order.
        text = String(decoding: TestEvents.line(TestEvents.minimal), as: UTF8.self)
        text = text.replacingOccurrences(of: #""type":"AgeRangeDeclined""#, with: #""type":"AgeRangeRequested""#)
        text = text.replacingOccurrences(of: #""payload":{}"#,
                                         with: #""payload":{"trigger":"launch","ageGates":[1.3e1,16.00,180e-1]}"#)
        let requested = try EventInput(line: Array(text.utf8))
        #expect(requested.canonicalText.contains(#""payload":{"ageGates":[13,16,18],"trigger":"launch"}"#),
                "\(requested.canonicalText)")
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
          arguments: ["recordedAt", "position", "streamVersion", "log", "leafHash", "chainHash", "derived"])
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

    @Test("unknown fields inside payload are unknown-field, with their path")
    func payloadIsClosed() {
        // Next to the event's own fields, at the top of payload.
        var payload = TestEvents.full["payload"]!.objectValue!
        payload["anything"] = ["goes": [1, 2, 3]]
        let error = TestEvents.refusal(TestEvents.full(payload: .object(payload)))
        expectRefused(error, .unknownField, field: "payload.anything")
        #expect(error?.hint?.contains("lowerBound") == true, "\(String(describing: error))")
        // Inside a nested object of the payload (version 1's parentalControls).
        payload = TestEvents.full["payload"]!.objectValue!
        payload["parentalControls"] = ["communicationLimits": true, "screenTime": true]
        expectRefused(TestEvents.refusal(TestEvents.full(payload: .object(payload))),
                      .unknownField, field: "payload.parentalControls.screenTime")
        // A type without payload fields takes only {}.
        expectRefused(TestEvents.refusal(TestEvents.setting(["payload"], to: ["anything": 1], in: TestEvents.minimal)),
                      .unknownField, field: "payload.anything")
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

    @Test("well-formed types pass the envelope; the catalogue then refuses those it does not define",
          arguments: ["A", "AgeRangeShared", "V2Event", "A" + String(repeating: "b", count: 63)])
    func goodType(type: String) throws {
        let object = TestEvents.full(setting: "type", to: .string(type))
        let envelope = try EventEnvelope(validating: object)
        #expect(envelope.type == type)
        if type == "AgeRangeShared" {
            let input = try EventInput(json: .object(object))
            #expect(input.envelope.type == type)
        } else {
            // Past the envelope: refused by the catalogue, not as an invalid type name.
            expectRefused(TestEvents.refusal(object), .unknownEventType, field: "type")
        }
    }

    @Test("schemaVersion must be an integer from 1 to 999999", arguments: [
        JSONValue.number(0), .number(1.5), .string("1"), .number(-1), .number(1_000_000), .bool(true), .null,
        .array([1]),
    ])
    func badSchemaVersion(value: JSONValue) {
        expectRefused(TestEvents.refusal(TestEvents.full(setting: "schemaVersion", to: value)),
                      .invalidField, field: "schemaVersion")
    }

    @Test("schemaVersion bounds pass the envelope; the catalogue then refuses versions the type lacks",
          arguments: [1, 2, 999_999])
    func goodSchemaVersion(version: Int) throws {
        let object = TestEvents.full(setting: "schemaVersion", to: .number(Double(version)))
        #expect(try EventEnvelope(validating: object).schemaVersion == version)
        if version <= 2 {
            // AgeRangeShared reads versions 1 and 2; `full`'s payload is valid in both.
            let input = try EventInput(json: .object(object))
            #expect(input.envelope.schemaVersion == version)
        } else {
            expectRefused(TestEvents.refusal(object), .unsupportedSchemaVersion, field: "schemaVersion")
        }
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

    /// `full` with `payload.pad` a string of `n` ASCII letters, and its canonical size. `pad` is
    /// not an AgeRangeShared field: such an event only ever gets as far as the size check that
    /// runs before the catalogue.
    static func padded(_ n: Int) -> (object: [String: JSONValue], size: Int) {
        let object = TestEvents.full(payload: ["pad": .string(String(repeating: "x", count: n))])
        return (object, CanonicalJSON.encode(.object(object)).count)
    }

    /// A catalogue-valid `RetentionApplied` (which derives nothing, so no `derived` member is
    /// added) whose canonical form is exactly `size` bytes: its `subjectIds` (1 to 1000 distinct
    /// pseudonyms of 1 to 128 characters) are sized to fill it. Returns the object and its
    /// canonical size, for the test to check.
    static func retention(canonicalSize size: Int) -> (object: [String: JSONValue], size: Int) {
        let base: [String: JSONValue] = [
            "eventId": "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f",
            "stream": "ledger-retention",
            "type": "RetentionApplied",
            "schemaVersion": 1,
            "occurredAt": "2026-11-22T10:15:00Z",
            "actor": ["kind": "ledger"],
            "payload": ["policyId": "retention-2026-01", "scope": "subjectKeys", "reason": "retentionPeriodElapsed",
                        "subjectIds": []],
        ]
        let empty = CanonicalJSON.encode(.object(base)).count
        // n ids of total length L add L + 2n (quotes) + (n - 1) (commas) bytes to the empty array.
        let free = size - empty + 1
        let count = (free + 130) / 131  // enough ids that none needs more than 128 characters
        let totalLength = free - 3 * count
        var ids: [JSONValue] = []
        for index in 0..<count {
            let length = totalLength / count + (index < totalLength % count ? 1 : 0)
            let prefix = "p_\(index)_"
            ids.append(.string(prefix + String(repeating: "a", count: length - prefix.count)))
        }
        let object = TestEvents.setting(["payload", "subjectIds"], to: .array(ids), in: base)
        return (object, CanonicalJSON.encode(.object(object)).count)
    }

    @Test("an event over 64 KiB is record-too-large")
    func tooLarge() {
        let error = TestEvents.refusal(Self.padded(70_000).object)
        expectRefused(error, .recordTooLarge, field: nil)
        #expect(error?.message.contains("65536") == true)
    }

    @Test("an oversized event is record-too-large even when its payload would fail the catalogue")
    func sizeBeforeCatalogue() {
        // `pad` is an unknown field: below the limit the catalogue names it ...
        expectRefused(TestEvents.refusal(Self.padded(10).object), .unknownField, field: "payload.pad")
        // ... above it, the size check (which runs first) refuses the event.
        expectRefused(TestEvents.refusal(Self.padded(70_000).object), .recordTooLarge, field: nil)
    }

    @Test("exactly 65536 canonical bytes pass; 65537 do not")
    func sizeBoundary() throws {
        #expect(EventInput.maxEventBytes == 65_536)
        let (atLimit, atSize) = Self.retention(canonicalSize: 65_536)
        #expect(atSize == 65_536)
        let input = try EventInput(json: .object(atLimit))
        #expect(input.canonicalBytes.count == 65_536)
        #expect(input.catalogued.derived.isEmpty)

        // The same catalogue-valid event, one byte longer.
        let (over, overSize) = Self.retention(canonicalSize: 65_537)
        #expect(overSize == 65_537)
        #expect(ForbiddenPersonalData.firstViolation(in: .object(over)) == nil)
        expectRefused(TestEvents.refusal(over), .recordTooLarge, field: nil)
    }

    @Test("the check before the catalogue: 65536 bytes are not record-too-large, 65537 are")
    func sizeBoundaryBeforeCatalogue() {
        // An event with an unknown payload field fails the catalogue, so the only size check it
        // meets is the one before it.
        let base = Self.padded(0).size
        let (atLimit, atSize) = Self.padded(65_536 - base)
        #expect(atSize == 65_536)
        expectRefused(TestEvents.refusal(atLimit), .unknownField, field: "payload.pad")

        let (over, overSize) = Self.padded(65_537 - base)
        #expect(overSize == 65_537)
        expectRefused(TestEvents.refusal(over), .recordTooLarge, field: nil)
    }

    @Test("the limit is on canonical bytes, not on the line: whitespace does not count")
    func sizeIsCanonical() throws {
        let object = Self.retention(canonicalSize: 65_536).object
        var text = String(decoding: TestEvents.line(object), as: UTF8.self)
        text = String(repeating: " ", count: 1_000) + text + String(repeating: "\n", count: 1_000)
        #expect(text.utf8.count > 65_536)
        let input = try EventInput(line: Array(text.utf8))
        #expect(input.canonicalBytes.count == 65_536)
    }

    @Test("the expectedVersion member does not count towards the size")
    func expectedVersionNotCounted() throws {
        var object = Self.retention(canonicalSize: 65_536).object
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

/// What a client sends is what it checked: the submission form parses back to the same event.
@Suite("EventInput submission form")
struct EventInputSubmissionTests {
    @Test("submissionBytes leave out derived facts, keep expectedVersion, and parse back to an equal event",
          arguments: [nil, #""noStream""#, "3"])
    func roundTrip(expected: String?) throws {
        let condition = expected.map { #","expectedVersion":\#($0)"# } ?? ""
        let line = #"{"eventId":"3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b","stream":"subject-p_7f3a9c","type":"AgeRangeShared","schemaVersion":1,"occurredAt":"2026-11-20T16:02:19Z","subject":"p_7f3a9c","actor":{"kind":"guardian"},"app":{"bundleId":"com.example.kidsdraw","platform":"iOS"},"payload":{"lowerBound":13,"upperBound":15,"ageRangeDeclaration":"guardianDeclared"}\#(condition)}"#
        let event = try EventInput(line: Array(line.utf8))
        #expect(String(decoding: event.canonicalBytes, as: UTF8.self).contains(#""derived""#), "the example has derived facts")
        let submitted = event.submissionBytes
        #expect(!String(decoding: submitted, as: UTF8.self).contains(#""derived""#))
        let again = try EventInput(line: submitted)
        #expect(again.canonicalBytes == event.canonicalBytes)
        #expect(again.expectedVersion == event.expectedVersion)
    }
}
