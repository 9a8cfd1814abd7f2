import LedgerCore
import Testing

/// Decision 0056: who may append each type, as the catalogue declares it and the writers check it.
@Suite("Who may append each type")
struct AppenderTests {
    static func envelope(_ type: String, actor: String) throws -> EventEnvelope {
        guard let schema = EventCatalogue.schema(for: type) else { throw CancellationError() }
        var members: [String: JSONValue] = [
            "eventId": "3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0b", "stream": "subject-p_1", "type": .string(type),
            "schemaVersion": .number(Double(schema.version)), "occurredAt": "2026-11-22T10:15:00Z", "subject": "p_1",
            "actor": ["kind": .string(actor)], "payload": schema.example,
        ]
        if let home = StreamConvention.homes[type], let id = schema.example[home.field]?.stringValue {
            members["stream"] = .string(home.prefix + id)
        }
        if type == "SubjectErased" { members["payload"] = ["subjectId": "p_1", "reason": "erasureRequest"] }
        return try EventInput(json: .object(members)).envelope
    }

    @Test("the ledger's own facts come only from their operations; no ordinary route records the ledger or the App Store as actor")
    func table() {
        for schema in EventCatalogue.schemas {
            let routes = schema.appenders.map(\.route)
            switch schema.type {
            case "SubjectErased": #expect(routes == [.erase])
            case "RetentionApplied": #expect(routes == [.retention])
            case "WithdrawalDelivered": #expect(routes == [.delivery] && schema.appenders[0].actors == ["ledger"])
            case "ConsentRescinded": #expect(Set(routes) == [.append, .appStoreNotification])
            default: #expect(routes == [.append], "\(schema.type)")
            }
            for appender in schema.appenders where !appender.route.isLedgerOperation {
                #expect(appender.actors.contains("ledger") == false, "\(schema.type) \(appender.route)")
                #expect(appender.actors.contains("appStore") == (appender.route == .appStoreNotification), "\(schema.type) \(appender.route)")
            }
        }
    }

    @Test("append refuses SubjectErased, RetentionApplied and a rescission as the App Store, saying what to use instead")
    func refusals() throws {
        let erased = try #require(throws: LedgerError.self) {
            try EventCatalogue.checkAppender(of: try Self.envelope("SubjectErased", actor: "ledger"), route: .append)
        }
        #expect(erased.code == .appendNotPermitted && erased.code.kind == .forbidden && erased.field == "type")
        #expect(erased.message.hasPrefix("SubjectErased is recorded by the ledger itself: use `consent-ledger erase`"))
        let retention = try #require(throws: LedgerError.self) {
            try EventCatalogue.checkAppender(of: try Self.envelope("RetentionApplied", actor: "ledger"), route: .append)
        }
        #expect(retention.message.hasPrefix("RetentionApplied is recorded by the ledger itself: use `consent-ledger retention`"))
        let rescinded = try #require(throws: LedgerError.self) {
            try EventCatalogue.checkAppender(of: try Self.envelope("ConsentRescinded", actor: "appStore"), route: .append)
        }
        #expect(rescinded.field == "actor.kind")
        #expect(rescinded.message.contains("POST /v1/logs/{log}/app-store/notifications"), "\(rescinded.message)")
        // What each route may do passes.
        try EventCatalogue.checkAppender(of: try Self.envelope("ConsentRescinded", actor: "appStore"), route: .appStoreNotification)
        try EventCatalogue.checkAppender(of: try Self.envelope("ConsentRescinded", actor: "app"), route: .append)
        try EventCatalogue.checkAppender(of: try Self.envelope("SubjectErased", actor: "operator"), route: .erase)
        #expect(throws: LedgerError.self) {
            try EventCatalogue.checkAppender(of: try Self.envelope("AgeRangeShared", actor: "app"), route: .appStoreNotification)
        }
    }

    @Test("a batch names the first refused event's index")
    func batchIndex() throws {
        let ordinary = try EventInput(json: .object([
            "eventId": "3f2b8c1e-7d4a-4e1b-9c3a-5b6d7e8f9a0c", "stream": "subject-p_1", "type": "AgeRangeShared", "schemaVersion": 2,
            "occurredAt": "2026-11-22T10:15:00Z", "subject": "p_1", "actor": ["kind": "app"],
            "payload": ["lowerBound": 13, "upperBound": 15, "ageRangeDeclaration": "selfDeclared"],
        ]))
        let erased = try SubjectErasure.event(subject: "p_1", reason: "erasureRequest")
        let error = try #require(throws: LedgerError.self) { try EventCatalogue.checkAppenders(of: [ordinary, ordinary, erased], route: .append) }
        #expect(error.line == 3)
    }
}
