import LedgerCore
import Testing

/// `AgeRangeShared` version 1 records, as apps on iOS 26.0 to 26.4 stored them, still decode
/// into the current (version 2) type.
@Suite("Event catalogue: AgeRangeShared v1 -> v2")
struct AgeRangeSharedUpcastTests {
    typealias F = CatalogueFixtures

    /// A whole version-1 event as an app sent it (canonical bytes, `parentalControls` as flags).
    static let sentV1Event = #"{"actor":{"kind":"guardian"},"app":{"appVersion":"2.0.1","bundleId":"com.example.kidsdraw","osVersion":"26.3","platform":"iOS"},"eventId":"5d2c7a10-8e3b-4f61-9a0c-2b7e4d1f6a35","occurredAt":"2026-03-02T08:15:00Z","payload":{"ageRangeDeclaration":"guardianDeclared","lowerBound":13,"parentalControls":{"communicationLimits":true,"significantAppChangeApprovalRequired":false},"upperBound":15},"schemaVersion":1,"stream":"subject-p_7f3a9c","subject":"p_7f3a9c","type":"AgeRangeShared"}"#

    /// The same event as the ledger stores it: the payload kept at version 1, plus `derived`.
    /// Worked out by hand from LegalCategory's rules: [13, 15] is not under13 (15 > 12) and is
    /// 13to15 (13 >= 13, 15 <= 15); verifiedAdult is false (not adult, and guardianDeclared is not
    /// a verification).
    static let storedV1Event = #"{"actor":{"kind":"guardian"},"app":{"appVersion":"2.0.1","bundleId":"com.example.kidsdraw","osVersion":"26.3","platform":"iOS"},"derived":{"legalCategory":"13to15","verifiedAdult":false},"eventId":"5d2c7a10-8e3b-4f61-9a0c-2b7e4d1f6a35","occurredAt":"2026-03-02T08:15:00Z","payload":{"ageRangeDeclaration":"guardianDeclared","lowerBound":13,"parentalControls":{"communicationLimits":true,"significantAppChangeApprovalRequired":false},"upperBound":15},"schemaVersion":1,"stream":"subject-p_7f3a9c","subject":"p_7f3a9c","type":"AgeRangeShared"}"#

    @Test("a stored version-1 event decodes into the current AgeRangeShared")
    func storedEvent() throws {
        let input = try EventInput(line: Array(Self.sentV1Event.utf8))
        #expect(input.canonicalText == Self.storedV1Event)
        #expect(input.envelope.schemaVersion == 1)
        let event = F.json(Self.storedV1Event)
        let checked = try EventCatalogue.validate(type: input.envelope.type, schemaVersion: input.envelope.schemaVersion,
                                                  payload: try #require(event["payload"]), context: .standard)
        #expect(checked.schemaVersion == 1)
        #expect(checked.wasUpcast)
        #expect(checked.payload(as: AgeRangeShared.self) == AgeRangeShared(
            lowerBound: 13, upperBound: 15, ageRangeDeclaration: .guardianDeclared, activeParentalControls: [.communicationLimits]))
        #expect(checked.derived == ["legalCategory": "13to15", "verifiedAdult": false])
        #expect(event["derived"] == .object(checked.derived))
    }

    @Test("parentalControls flags become activeParentalControls, in the enum's order", arguments: [
        (#"{"lowerBound":13,"upperBound":15,"parentalControls":{"significantAppChangeApprovalRequired":true,"communicationLimits":true}}"#,
         #"["communicationLimits","significantAppChangeApprovalRequired"]"#),
        (#"{"lowerBound":13,"upperBound":15,"parentalControls":{"significantAppChangeApprovalRequired":true}}"#,
         #"["significantAppChangeApprovalRequired"]"#),
        (#"{"lowerBound":18,"parentalControls":{"communicationLimits":false,"significantAppChangeApprovalRequired":false}}"#,
         #"[]"#),
        (#"{"lowerBound":18,"parentalControls":{}}"#, #"[]"#),
        (#"{"lowerBound":18,"parentalControls":{"communicationLimits":null}}"#, #"[]"#),
        (#"{"lowerBound":18,"parentalControls":null}"#, #"null"#),
        (#"{"lowerBound":18}"#, #"null"#),
    ])
    func controls(v1: String, expected: String) throws {
        let checked = try EventCatalogue.validate(type: "AgeRangeShared", schemaVersion: 1, payload: F.json(v1), context: .standard)
        let shared = try #require(checked.payload(as: AgeRangeShared.self))
        let current = shared.jsonValue
        #expect((current["activeParentalControls"] ?? .null) == F.json(expected), "\(v1)")
        #expect(current["parentalControls"] == nil)
    }

    @Test("bounds and declarations are kept; a checked declaration still makes a verified adult")
    func keptFields() throws {
        let v1 = F.json(#"{"ageRangeDeclaration":"governmentIDChecked","lowerBound":18,"parentalControls":{"communicationLimits":false}}"#)
        let shared = try AgeRangeShared.decode(v1, schemaVersion: 1)
        #expect(shared == AgeRangeShared(lowerBound: 18, upperBound: nil, ageRangeDeclaration: .governmentIDChecked,
                                         activeParentalControls: []))
        #expect(shared.isVerifiedAdult(ageOfMajority: 18))
        #expect(shared.jsonValue == ["ageRangeDeclaration": "governmentIDChecked", "lowerBound": 18, "activeParentalControls": []])
    }

    @Test("version 1 did not know confirmed, and is checked against its own fields")
    func version1Schema() {
        expectRefused(F.refusal("AgeRangeShared", version: 1, F.json(#"{"lowerBound":18,"ageRangeDeclaration":"confirmed"}"#)),
                      .invalidField, field: "payload.ageRangeDeclaration")
        let newField = F.refusal("AgeRangeShared", version: 1, F.json(#"{"lowerBound":18,"activeParentalControls":[]}"#))
        expectRefused(newField, .unknownField, field: "payload.activeParentalControls")
        #expect(newField?.hint?.contains(#"send "schemaVersion": 2"#) == true)
        expectRefused(F.refusal("AgeRangeShared", version: 1, F.json(#"{"lowerBound":18,"parentalControls":{"screenTime":true}}"#)),
                      .unknownField, field: "payload.parentalControls.screenTime")
        expectRefused(F.refusal("AgeRangeShared", version: 1, F.json(#"{"lowerBound":18,"parentalControls":{"communicationLimits":"on"}}"#)),
                      .invalidField, field: "payload.parentalControls.communicationLimits")
        expectRefused(F.refusal("AgeRangeShared", version: 1, F.json(#"{"lowerBound":18,"parentalControls":["communicationLimits"]}"#)),
                      .invalidField, field: "payload.parentalControls")
        expectRefused(F.refusal("AgeRangeShared", version: 1, F.json(#"{"lowerBound":16,"upperBound":15}"#)),
                      .invalidField, field: "payload.lowerBound")
        expectRefused(F.refusal("AgeRangeShared", version: 1, F.json(#"{"lowerBound":16,"upperBound":16}"#)),
                      .invalidField, field: "payload.upperBound")
    }

    @Test("version 2 refuses version 1's field name")
    func version2RefusesOldName() {
        expectRefused(F.refusal("AgeRangeShared", version: 2, F.json(#"{"lowerBound":18,"parentalControls":{"communicationLimits":true}}"#)),
                      .unknownField, field: "payload.parentalControls")
        #expect(F.refusal("AgeRangeShared", version: 2, F.json(#"{"lowerBound":18,"ageRangeDeclaration":"confirmed"}"#)) == nil)
    }

    @Test("the schema documents version 1 and its upcast")
    func documented() throws {
        let schema = try #require(EventCatalogue.schema(for: "AgeRangeShared"))
        let v1 = try #require(schema.olderVersions.first)
        #expect(v1.version == 1)
        #expect(v1.changes.contains("parentalControls"))
        #expect(schema.fields(version: 1)?.map(\.name) == ["lowerBound", "upperBound", "ageRangeDeclaration", "parentalControls"])
        #expect(schema.fields(version: 2)?.map(\.name) == ["lowerBound", "upperBound", "ageRangeDeclaration", "activeParentalControls"])
        #expect(schema.fields(version: 3) == nil)
        #expect(AgeRangeShared.version1.upcast(["parentalControls": ["communicationLimits": true], "lowerBound": 13])
            == ["activeParentalControls": ["communicationLimits"], "lowerBound": 13])
    }
}
