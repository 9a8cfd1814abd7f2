import LedgerCore
import Testing

/// Every type of docs/design/events.md is in the catalogue, and every example validates, round-trips through
/// the Swift type and uses every field.
@Suite("Event catalogue: types and examples")
struct CatalogueExampleTests {
    /// docs/design/events.md's types, in its order.
    static let eventsMd = [
        "EligibilityChecked", "AgeRangeRequested", "AgeRangeShared", "AgeRangeDeclined", "AgeRangeRequestFailed",
        "SignificantChangeDeclared", "SignificantChangeAcknowledged", "PermissionQuestionSent", "PermissionQuestionFailed",
        "ParentalAnswerReceived", "QuestionExpired", "ConsentRescinded", "AccessGateApplied",
        "DeviceRatingLimitObserved", "InstallAttempted", "AgeExceptionRequested", "AgeExceptionDecided", "ApproveInPersonFailed",
        "ApproveInPersonPresented", "StoreConsentStatusReceived", "SignificantChangeNotifiedToStore", "PlayAgeSignalReceived", "AgeVerificationCompleted", "OperatorDecision",
        "RetentionApplied", "SubjectErased", "WithdrawalDelivered",
    ]

    @Test("the catalogue has exactly docs/design/events.md's types, in its order")
    func everyType() {
        #expect(EventCatalogue.eventTypes == Self.eventsMd)
        for type in Self.eventsMd {
            #expect(EventCatalogue.schema(for: type)?.type == type)
        }
        #expect(EventCatalogue.schema(for: "agerangeshared") == nil)
    }

    @Test("types are grouped as docs/design/events.md groups them")
    func groups() {
        let groups = Dictionary(grouping: EventCatalogue.schemas, by: \.group).mapValues { $0.map(\.type) }
        #expect(groups[.ageRange] == Array(Self.eventsMd[0..<5]))
        #expect(groups[.consent] == Array(Self.eventsMd[5..<13]))
        #expect(groups[.ageRatingExceptions] == Array(Self.eventsMd[13..<19]))
        #expect(groups[.appStoreLaws] == ["StoreConsentStatusReceived", "SignificantChangeNotifiedToStore"])
        #expect(groups[.otherPlatformsAndPeople] == ["PlayAgeSignalReceived", "AgeVerificationCompleted", "OperatorDecision"])
        #expect(groups[.ledger] == ["RetentionApplied", "SubjectErased", "WithdrawalDelivered"])
    }

    @Test("schema versions: AgeRangeShared is at 2 and reads 1; every other type is at 1")
    func versions() {
        for schema in EventCatalogue.schemas {
            if schema.type == "AgeRangeShared" {
                #expect(schema.schemaVersions == [1, 2])
            } else {
                #expect(schema.schemaVersions == [1], "\(schema.type)")
            }
        }
    }

    @Test("every example validates and round-trips JSON -> Swift type -> JSON unchanged", arguments: eventsMd)
    func examplesRoundTrip(type: String) throws {
        let schema = try #require(EventCatalogue.schema(for: type))
        for example in schema.examples {
            let checked = try EventCatalogue.validate(type: type, schemaVersion: schema.version, payload: example, context: .standard)
            #expect(checked.type == type)
            #expect(checked.schemaVersion == schema.version)
            #expect(!checked.wasUpcast)
            #expect(Swift.type(of: checked.payload).eventType == type)
            #expect(checked.payload.jsonValue == example, "\(type): \(CanonicalJSON.encodeString(checked.payload.jsonValue))")
            #expect(CanonicalJSON.encode(checked.payload.jsonValue) == CanonicalJSON.encode(example))
        }
    }

    @Test("the examples together use every field the schema describes", arguments: eventsMd)
    func examplesCoverEveryField(type: String) throws {
        let schema = try #require(EventCatalogue.schema(for: type))
        let described = CatalogueFixtures.schemaPaths(schema.fields)
        let used = schema.examples.reduce(into: Set<String>()) { $0.formUnion(CatalogueFixtures.valuePaths($1)) }
        #expect(described.subtracting(used).isEmpty, "fields no example uses: \(described.subtracting(used).sorted())")
        #expect(used.subtracting(described).isEmpty)
    }

    @Test("derived facts are exactly the ones the schema documents", arguments: eventsMd)
    func derivedMatchSchema(type: String) throws {
        let schema = try #require(EventCatalogue.schema(for: type))
        let documented = Set(schema.derived.map(\.name))
        let first = try EventCatalogue.validate(type: type, schemaVersion: schema.version, payload: schema.example, context: .standard)
        #expect(Set(first.derived.keys) == documented)
        for example in schema.examples {
            let checked = try EventCatalogue.validate(type: type, schemaVersion: schema.version, payload: example, context: .standard)
            #expect(Set(checked.derived.keys).isSubset(of: documented))
            for fact in schema.derived {
                guard let value = checked.derived[fact.name] else { continue }
                // The value is one the documentation allows.
                switch fact.kind {
                case .boolean: #expect(value.boolValue != nil)
                case .oneOf(let allowed): #expect(allowed.map(\.name).contains(value.stringValue ?? "?"), "\(value)")
                default: Issue.record("undocumented derived kind for \(fact.name)")
                }
            }
        }
    }

    @Test("examples carry no birth date, birth year or exact age, and pass EventInput on their home stream", arguments: eventsMd)
    func examplesPassTheDoor(type: String) throws {
        let schema = try #require(EventCatalogue.schema(for: type))
        for example in schema.examples {
            #expect(ForbiddenPersonalData.firstViolation(in: example) == nil)
            var event = TestEvents.full(payload: example)
            event["type"] = .string(type)
            event["schemaVersion"] = .number(Double(schema.version))
            // Question and exception events belong on question-<questionId> / exception-<exceptionId>.
            if let home = StreamConvention.homes[type] {
                let id = try #require(example[home.field]?.stringValue, "\(type)'s example has no \(home.field)")
                event["stream"] = .string(home.prefix + id)
            }
            #expect(TestEvents.refusal(event) == nil)
        }
    }

    @Test("typed decode and jsonValue agree with the catalogue")
    func typedDecode() throws {
        let shared = try AgeRangeShared.decode(["lowerBound": 13, "upperBound": 15, "ageRangeDeclaration": "guardianDeclared"])
        #expect(shared == AgeRangeShared(lowerBound: 13, upperBound: 15, ageRangeDeclaration: .guardianDeclared))
        #expect(shared.jsonValue == ["lowerBound": 13, "upperBound": 15, "ageRangeDeclaration": "guardianDeclared"])

        let question = PermissionQuestionSent(
            questionId: "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318",
            topic: .communication(personInformation: [.init(handle: .init(value: "kid@example.com", kind: .emailAddress))], actions: nil),
            choices: [.init(id: "ok", title: "OK", answer: .approval)], sentVia: .askCenter)
        #expect(question.jsonValue == [
            "questionId": "6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318",
            "topic": ["communication": ["personInformation": [["handle": ["value": "kid@example.com", "kind": "emailAddress"]]]]],
            "choices": [["id": "ok", "title": "OK", "answer": "approval"]],
            "sentVia": "askCenter",
        ])
        #expect(try PermissionQuestionSent.decode(question.jsonValue) == question)
        #expect(AgeRangeDeclined().jsonValue == [:])

        #expect(throws: LedgerError.self) { try AgeRangeShared.decode(["lowerBound": 16, "upperBound": 15]) }
    }

    @Test("a payload decodes only as its own type")
    func payloadAs() throws {
        let checked = try EventCatalogue.validate(type: "QuestionExpired", schemaVersion: 1,
                                                  payload: CatalogueFixtures.json(#"{"questionId":"6c1e8a52-3d9b-4f0e-a7c2-91b5e0d4f318","expirationDate":"2026-11-27T16:02:25Z"}"#), context: .standard)
        #expect(checked.payload(as: QuestionExpired.self)?.expirationDate == "2026-11-27T16:02:25Z")
        #expect(checked.payload(as: AgeRangeShared.self) == nil)
    }
}
