import LedgerCore
import Testing

/// Which fields are personal data: marked in the schema, listed by path.
@Suite("Event catalogue: personal data")
struct PersonalFieldsTests {
    /// Every type with personal fields; all others have none.
    static let expected: [String: [String]] = [
        "PermissionQuestionSent": ["payload.topic.communication.personInformation", "payload.topic.custom.description"],
        "OperatorDecision": ["payload.reason"],
    ]

    @Test("personal fields by type: contact handles in a communication topic, a custom topic's text and operator reasons, nothing else")
    func byType() {
        for type in EventCatalogue.eventTypes {
            #expect(EventCatalogue.personalFields(type: type) == (Self.expected[type] ?? []), "\(type)")
        }
        #expect(EventCatalogue.personalFields(type: "NoSuchType").isEmpty)
        #expect(EventCatalogue.personalFields(type: "AgeRangeShared", schemaVersion: 1).isEmpty)
        #expect(EventCatalogue.personalFields(type: "OperatorDecision", schemaVersion: 1) == ["payload.reason"])
        #expect(EventCatalogue.personalFields(type: "OperatorDecision", schemaVersion: 7).isEmpty)
    }

    @Test("a validated payload carries its personal field paths")
    func onValidation() throws {
        for schema in EventCatalogue.schemas {
            let checked = try EventCatalogue.validate(type: schema.type, schemaVersion: schema.version, payload: schema.example, context: .standard)
            #expect(checked.personalFields == (Self.expected[schema.type] ?? []), "\(schema.type)")
        }
    }

    @Test("people in a communication topic are personal data; their handle kinds are listed with them")
    func communicationTopic() throws {
        let schema = try #require(EventCatalogue.schema(for: "PermissionQuestionSent"))
        guard case .variant(let cases)? = schema.fields.field(named: "topic")?.kind,
              let communication = cases.first(where: { $0.name == "communication" }) else {
            Issue.record("topic is not a variant with a communication case")
            return
        }
        #expect(communication.fields.field(named: "personInformation")?.isPersonalData == true)
        #expect(communication.fields.field(named: "actions")?.isPersonalData == false)
        #expect(schema.fields.field(named: "questionId")?.isPersonalData == false)
    }

    @Test("guardian, subject and operator ids are pseudonyms: an e-mail address or a name is refused")
    func pseudonymsOnly() {
        let cases: [(String, String)] = [
            ("ParentalAnswerReceived", "guardianId"), ("AgeExceptionDecided", "guardianId"),
            ("OperatorDecision", "operatorId"), ("OperatorDecision", "affectedSubjectId"), ("SubjectErased", "subjectId"),
        ]
        for (type, key) in cases {
            for value: JSONValue in ["jane.doe@example.com", "Jane Doe", "+1 555 0100"] {
                expectRefused(CatalogueFixtures.refusal(type, CatalogueFixtures.example(type, setting: key, to: value)),
                              .invalidField, field: "payload.\(key)")
            }
        }
    }
}
