import LedgerCore
import Testing

@Suite("Personal data sealed with the subject's key")
struct PersonalDataCipherTests {
    static let key = [UInt8](repeating: 7, count: 32)
    static let context = PersonalDataCipher.Context(log: "acme", subject: "p_1", eventId: "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f", path: "payload.reason")
    static let value: JSONValue = .string("called from +44 20 7946 0000; parent asked to stop")

    @Test("sealing hides the value, opening restores it, and sealing twice gives the same bytes")
    func roundTrip() throws {
        let sealed = try PersonalDataCipher.seal(Self.value, key: Self.key, context: Self.context)
        #expect(PersonalDataCipher.isSealed(sealed))
        #expect(!CanonicalJSON.encodeString(sealed).contains("7946 0000"))
        #expect(try PersonalDataCipher.open(sealed, key: Self.key, context: Self.context) == Self.value)
        #expect(try PersonalDataCipher.seal(Self.value, key: Self.key, context: Self.context) == sealed)
        // Another plaintext gets another nonce, so another ciphertext.
        #expect(try PersonalDataCipher.seal(.string("other"), key: Self.key, context: Self.context) != sealed)
    }

    @Test("the wrong key, another field or another event cannot open it")
    func bound() throws {
        let sealed = try PersonalDataCipher.seal(Self.value, key: Self.key, context: Self.context)
        var elsewhere = Self.context
        elsewhere.path = "payload.note"
        var otherEvent = Self.context
        otherEvent.eventId = "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e70"
        for (key, context) in [([UInt8](repeating: 8, count: 32), Self.context), (Self.key, elsewhere), (Self.key, otherEvent)] {
            let error = #expect(throws: LedgerError.self) { try PersonalDataCipher.open(sealed, key: key, context: context) }
            #expect(error?.code == .integrityFailure)
        }
    }

    @Test("an event's named fields are sealed in place and the rest is untouched; without a subject it is refused")
    func sealingAnEvent() throws {
        let line = #"{"eventId":"0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f","stream":"subject-p_1","type":"OperatorDecision","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","subject":"p_1","actor":{"kind":"operator","id":"op_3"},"payload":{"affectedSubjectId":"p_1","decision":"annotation","operatorId":"op_3","reason":"called from +44 20 7946 0000"}}"#
        let input = try EventInput(line: Array(line.utf8))
        let sealed = try input.sealing(paths: ["payload.reason"], key: Self.key, log: "acme")
        let event = try JSONParser.parse(sealed.canonicalBytes)
        #expect(!sealed.canonicalText.contains("7946 0000"))
        #expect(event["payload"]?["operatorId"] == .string("op_3"))
        #expect(PersonalDataCipher.isSealed(event["payload"]!["reason"]!))
        // Reading back: opened with the key, marked erased without it.
        let opened = try PersonalDataView.reveal(event: event, log: "acme", key: .available(Self.key))
        #expect(opened["payload"]?["reason"] == .string("called from +44 20 7946 0000"))
        let erased = try PersonalDataView.reveal(event: event, log: "acme", key: .erased)
        #expect(erased["payload"]?["reason"] == PersonalDataCipher.erasedMarker)
        #expect(erased["payload"]?["operatorId"] == .string("op_3"))

        let anonymous = try EventInput(line: Array(line.replacingOccurrences(of: #""subject":"p_1","#, with: "").utf8))
        let error = #expect(throws: LedgerError.self) { _ = try anonymous.sealing(paths: ["payload.reason"], key: Self.key, log: "acme") }
        #expect(error?.field == "subject")
    }

    @Test("a client may not send $-members (they are the ledger's sealed values)")
    func reservedMembers() throws {
        let line = #"{"eventId":"0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f","stream":"s","type":"OperatorDecision","schemaVersion":1,"occurredAt":"2026-11-22T10:15:00Z","actor":{"kind":"app"},"payload":{"reason":{"$sealed":"v1.AAAA"}}}"#
        let error = #expect(throws: LedgerError.self) { _ = try EventInput(line: Array(line.utf8)) }
        #expect(error?.code == .invalidField)
        #expect(error?.field == "payload.reason")
    }
}

@Suite("Personal fields inside arrays")
struct PersonalFieldsInArraysTests {
    @Test("every element is sealed and opens again, through the catalogue's [] paths")
    func arrays() throws {
        let key = [UInt8](repeating: 3, count: 32)
        let event: JSONValue = .object([
            "eventId": "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f", "subject": "p_1",
            "payload": .object(["people": .array([.object(["handle": "+44 20 7946 0000"]), .object(["handle": "a@example.com"])])]),
        ])
        let context = PersonalDataCipher.Context(log: "acme", subject: "p_1", eventId: "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f",
                                                 path: "payload.people[].handle")
        let sealed = try event.updating(path: ["payload", "people[]", "handle"]) { value throws(LedgerError) in
            try PersonalDataCipher.seal(value, key: key, context: context)
        }
        #expect(!CanonicalJSON.encodeString(sealed).contains("7946 0000"))
        #expect(!CanonicalJSON.encodeString(sealed).contains("example.com"))
        #expect(try PersonalDataView.reveal(event: sealed, log: "acme", key: .available(key)) == event)
        #expect(JSONValue.genericPath("payload.a[12].b[0]") == "payload.a[].b[]")
    }
}
