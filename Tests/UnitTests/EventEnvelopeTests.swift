import LedgerCore
import Testing

/// `EventEnvelope(validating:)`: the typed envelope, its closed value sets and the order of checks.
@Suite("EventEnvelope")
struct EventEnvelopeTests {
    @Test("the full sample reads into the typed envelope")
    func fullSample() throws {
        let envelope = try EventEnvelope(validating: TestEvents.full)
        #expect(envelope.eventId == "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f")
        #expect(envelope.stream == "subject-p_4f1c")
        #expect(envelope.type == "AgeRangeShared")
        #expect(envelope.schemaVersion == 1)
        #expect(envelope.occurredAt == "2026-11-22T10:15:00Z")
        #expect(envelope.subject == "p_4f1c")
        #expect(envelope.actor.kind == "app")
        #expect(envelope.actor.id == "device:7f3a")
        #expect(envelope.app?.bundleId == "com.example.kids")
        #expect(envelope.app?.appVersion == "2.3.1")
        #expect(envelope.app?.platform == "iOS")
        #expect(envelope.app?.osVersion == "26.1")
        #expect(envelope.jurisdiction?.code == "US-TX")
        #expect(envelope.jurisdiction?.basis == "asserted")
        #expect(envelope.correlationId == "flow-42")
        #expect(envelope.causationId == "3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b")
    }

    @Test("two reads of the same object are equal; a different field makes them differ")
    func equality() throws {
        let a = try EventEnvelope(validating: TestEvents.full)
        let b = try EventEnvelope(validating: TestEvents.full)
        let c = try EventEnvelope(validating: TestEvents.full(setting: "subject", to: "p_other"))
        #expect(a == b)
        #expect(a != c)
    }

    @Test("optional fields given as null read as absent", arguments: [
        "subject", "correlationId", "causationId", "app", "jurisdiction", "actor.id", "app.platform",
        "app.appVersion", "app.osVersion",
    ])
    func nullOptional(path: String) throws {
        let envelope = try EventEnvelope(validating: TestEvents.full(setting: path, to: .null))
        switch path {
        case "subject": #expect(envelope.subject == nil)
        case "correlationId": #expect(envelope.correlationId == nil)
        case "causationId": #expect(envelope.causationId == nil)
        case "app": #expect(envelope.app == nil)
        case "jurisdiction": #expect(envelope.jurisdiction == nil)
        case "actor.id": #expect(envelope.actor.id == nil)
        case "app.platform": #expect(envelope.app?.platform == nil && envelope.app?.bundleId == "com.example.kids")
        case "app.appVersion": #expect(envelope.app?.appVersion == nil && envelope.app != nil)
        case "app.osVersion": #expect(envelope.app?.osVersion == nil && envelope.app != nil)
        default: Issue.record("unhandled path \(path)")
        }
    }

    @Test("required fields inside optional objects", arguments: ["app.bundleId", "jurisdiction.code", "jurisdiction.basis"])
    func requiredInsideOptional(path: String) {
        expectRefused(TestEvents.envelopeRefusal(TestEvents.full(setting: path, to: nil)), .missingField, field: path)
    }

    @Test("every documented actor kind is accepted", arguments: [
        "app", "guardian", "subject", "operator", "appStore", "playStore", "system", "ledger",
    ])
    func actorKinds(kind: String) throws {
        let envelope = try EventEnvelope(validating: TestEvents.full(setting: "actor.kind", to: .string(kind)))
        #expect(envelope.actor.kind == kind)
    }

    @Test("the closed value sets are exactly the documented ones")
    func closedSets() {
        #expect(EventEnvelope.Actor.kinds == ["app", "guardian", "subject", "operator", "appStore", "playStore", "system", "ledger"])
        #expect(EventEnvelope.AppInfo.platforms == ["iOS", "iPadOS", "macOS", "visionOS", "watchOS", "tvOS", "android", "web", "server"])
        #expect(EventEnvelope.Jurisdiction.bases == ["asserted", "storefront", "inferred"])
    }

    @Test("every documented platform is accepted", arguments: [
        "iOS", "iPadOS", "macOS", "visionOS", "watchOS", "tvOS", "android", "web", "server",
    ])
    func platforms(platform: String) throws {
        let envelope = try EventEnvelope(validating: TestEvents.full(setting: "app.platform", to: .string(platform)))
        #expect(envelope.app?.platform == platform)
    }

    @Test("every documented jurisdiction basis is accepted, others are not")
    func bases() throws {
        for basis in ["asserted", "storefront", "inferred"] {
            let envelope = try EventEnvelope(validating: TestEvents.full(setting: "jurisdiction.basis", to: .string(basis)))
            #expect(envelope.jurisdiction?.basis == basis)
        }
        for basis in ["Asserted", "guessed", ""] {
            expectRefused(TestEvents.envelopeRefusal(TestEvents.full(setting: "jurisdiction.basis", to: .string(basis))),
                          .invalidField, field: "jurisdiction.basis")
        }
    }

    @Test("valid jurisdiction codes", arguments: ["US", "GB", "EU", "US-TX", "US-T", "FR-75C", "GB-ENG", "CN-11"])
    func goodJurisdictionCode(code: String) throws {
        let envelope = try EventEnvelope(validating: TestEvents.full(setting: "jurisdiction.code", to: .string(code)))
        #expect(envelope.jurisdiction?.code == code)
    }

    @Test("bundle ids and versions", arguments: [
        ("app.bundleId", "com.example.kids", true), ("app.bundleId", "com.example-kids_2", true),
        ("app.bundleId", "com example", false), ("app.bundleId", "com/example", false),
        ("app.bundleId", String(repeating: "b", count: 255), true), ("app.bundleId", String(repeating: "b", count: 256), false),
        ("app.appVersion", "2.3.1 (45)", true), ("app.appVersion", "1.0.0-beta+7", true),
        ("app.appVersion", "2.3.1/beta", false), ("app.appVersion", "", false),
        ("app.osVersion", String(repeating: "9", count: 64), true), ("app.osVersion", String(repeating: "9", count: 65), false),
    ])
    func bundleIdsAndVersions(path: String, value: String, valid: Bool) {
        let error = TestEvents.envelopeRefusal(TestEvents.full(setting: path, to: .string(value)))
        if valid {
            #expect(error == nil, "\(String(describing: error))")
        } else {
            expectRefused(error, .invalidField, field: path)
        }
    }

    @Test("the build's environment: production, sandbox or development; anything else is refused with the field named",
          arguments: [("production", true), ("sandbox", true), ("development", true), ("Production", false), ("xcode", false), ("", false)])
    func environment(value: String, valid: Bool) throws {
        let event = TestEvents.full(setting: "app.environment", to: .string(value))
        if valid {
            #expect(try EventEnvelope(validating: event).app?.environment == value)
        } else {
            expectRefused(TestEvents.envelopeRefusal(event), .invalidField, field: "app.environment")
        }
        #expect(try EventEnvelope(validating: TestEvents.full).app?.environment == nil, "not said when left out")
    }

    @Test("pseudonym and id limits: 128 characters pass, 129 do not", arguments: ["subject", "actor.id", "correlationId", "causationId"])
    func pseudonymLength(path: String) {
        #expect(TestEvents.envelopeRefusal(TestEvents.full(setting: path, to: .string(String(repeating: "p", count: 128)))) == nil)
        expectRefused(TestEvents.envelopeRefusal(TestEvents.full(setting: path, to: .string(String(repeating: "p", count: 129)))),
                      .invalidField, field: path)
        expectRefused(TestEvents.envelopeRefusal(TestEvents.full(setting: path, to: "")), .invalidField, field: path)
    }

    @Test("with every field wrong, errors come in the documented order, one at a time")
    func orderOfChecks() {
        // Fix one field after another; each time the next field in the order is named.
        let order: [(String, JSONValue, JSONValue)] = [
            ("eventId", "X", "0b7c6f3e-2a4d-4c1b-9e8f-1a2b3c4d5e6f"),
            ("stream", " ", "subject-p_4f1c"),
            ("type", "x", "AgeRangeShared"),
            ("schemaVersion", 0, 1),
            ("occurredAt", "now", "2026-11-22T10:15:00Z"),
            ("subject", "a b", "p_4f1c"),
            ("correlationId", "a b", "flow-42"),
            ("causationId", "a b", "cause-1"),
            ("actor", ["kind": "robot"], ["kind": "app"]),
            ("app", ["bundleId": "a b"], ["bundleId": "com.example.kids"]),
            ("jurisdiction", ["code": "x", "basis": "asserted"], ["code": "US", "basis": "asserted"]),
            ("payload", [], [:]),
        ]
        var object: [String: JSONValue] = [:]
        for (key, bad, _) in order { object[key] = bad }
        for (key, _, good) in order {
            let error = TestEvents.envelopeRefusal(object)
            #expect(error?.code == .invalidField, "\(key): \(String(describing: error))")
            #expect(error?.field?.hasPrefix(key) == true, "expected \(key) next, got \(String(describing: error?.field))")
            object[key] = good
        }
        #expect(TestEvents.envelopeRefusal(object) == nil)
    }

    @Test("an unknown field inside actor, app or jurisdiction is named by its full path", arguments: [
        "actor.name", "actor.email", "app.foo", "app.bundleID", "jurisdiction.region",
    ])
    func unknownNested(path: String) {
        expectRefused(TestEvents.envelopeRefusal(TestEvents.full(setting: path, to: "x")), .unknownField, field: path)
    }

    @Test("unknown fields are reported before any missing field")
    func unknownBeforeMissing() {
        expectRefused(TestEvents.envelopeRefusal(["extra": 1]), .unknownField, field: "extra")
        expectRefused(TestEvents.envelopeRefusal([:]), .missingField, field: "eventId")
    }

    @Test("inputFields and ledgerFields do not overlap; expectedVersion is an input field")
    func fieldLists() {
        #expect(Set(EventEnvelope.inputFields).isDisjoint(with: EventEnvelope.ledgerFields))
        #expect(EventEnvelope.inputFields.contains("expectedVersion"))
        #expect(EventEnvelope.inputFields.count == Set(EventEnvelope.inputFields).count)
        #expect(EventEnvelope.ledgerFields == ["recordedAt", "position", "streamVersion", "log", "leafHash", "chainHash", "derived"])
        #expect(EventEnvelope.ledgerFields.contains(EventCatalogue.derivedMember))
    }

    @Test("the envelope does not look inside payload (ForbiddenPersonalData is EventInput's job)")
    func payloadNotInspected() throws {
        let envelope = try EventEnvelope(validating: TestEvents.full(payload: ["birthDate": "2014-01-01"]))
        #expect(envelope.type == "AgeRangeShared")
        expectRefused(TestEvents.refusal(TestEvents.full(payload: ["birthDate": "2014-01-01"])),
                      .forbiddenPersonalData, field: "payload.birthDate")
    }

    @Test("error descriptions name the field and carry a hint")
    func errorDescription() throws {
        let error = try #require(TestEvents.envelopeRefusal(TestEvents.full(setting: "actor.kind", to: "robot")))
        #expect(error.description.hasPrefix("field actor.kind: must be one of "))
        #expect(error.description.contains("\n  hint: "))
        #expect(error.at(line: 3).description.hasPrefix("line 3, field actor.kind: "))
        #expect(error.code.description == "invalid-field")
    }
}
