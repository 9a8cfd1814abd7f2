import Foundation
import LedgerCore
import LedgerPostgres
import Testing

@Suite("Every event type through append and read")
struct CatalogueRoundTripTests {
    /// The catalogue's example of `schema` in an envelope, on the stream it belongs to, recorded as
    /// `actor` (by default one its route allows).
    static func input(_ schema: EventSchema, index: Int, actor: String? = nil) throws -> EventInput {
        guard case .object(let payload) = schema.example else { throw CancellationError() }
        let stream = StreamConvention.homes[schema.type].map { $0.prefix + (payload[$0.field]?.stringValue ?? "") } ?? "subject-p_7f3a9c"
        let event: JSONValue = .object([
            "eventId": .string(String(format: "00000000-0000-4000-8000-%012d", index)),
            "stream": .string(stream), "type": .string(schema.type), "schemaVersion": .number(Double(schema.version)),
            "occurredAt": "2026-11-20T16:02:11Z", "subject": "p_7f3a9c", "actor": ["kind": .string(actor ?? Self.actor(schema))],
            "app": ["bundleId": "com.example.kidsdraw", "platform": "iOS"], "payload": schema.example,
        ])
        return try EventInput(json: event)
    }

    /// The route a type's example goes through: `append` where the type allows it (every type an
    /// app reports), else its own (the ledger's own facts: decision 0056).
    static func appender(_ schema: EventSchema) -> EventAppender {
        schema.appenders.first { $0.route == .append } ?? schema.appenders[0]
    }

    /// An actor that route may record the type with: `app` where it may, else the first it allows.
    static func actor(_ schema: EventSchema) -> String {
        let actors = appender(schema).actors
        return actors.contains("app") ? "app" : actors[0]
    }

    /// Whether the dotted path (with `[]` for "any element") leads to a value in `json`.
    static func present(_ path: String, in json: JSONValue) -> Bool {
        var values = [json]
        for segment in path.split(separator: ".") {
            let name = segment.hasSuffix("[]") ? String(segment.dropLast(2)) : String(segment)
            values = values.compactMap { $0[name] }.flatMap { value -> [JSONValue] in
                if segment.hasSuffix("[]"), case .array(let elements) = value { return elements }
                return value == .null ? [] : [value]
            }
        }
        return !values.isEmpty
    }

    @Test("each type's example is stored, read back byte for byte (sealed fields aside) and verifies")
    func roundTrip() async throws {
        let db = try await TestDatabase.create()
        // A WithdrawalDelivered is stored only as a real delivery makes it (decision 0084): its
        // round trip is WithdrawalDeliveredTests', on a delivery to a real receiver.
        let schemas = EventCatalogue.schemas.filter { Self.appender($0).route != .delivery }
        let inputs = try schemas.enumerated().map { try Self.input($1, index: $0 + 1) }
        #expect(inputs.count == EventCatalogue.eventTypes.count - 1)
        // Each through its route: the ledger's own facts (last in the catalogue) through their
        // operations, as the owner; every other type through append.
        let ordinary = schemas.prefix { Self.appender($0).route == .append }.count
        try await db.as(.application) { client async throws in
            let result = try await EventStore(pool: client).append(log: "acme", events: Array(inputs[..<ordinary]))
            #expect(result.events.count == ordinary)
        }
        try await db.as(.administrator) { client async throws in
            let store = EventStore(pool: client)
            for input in inputs[ordinary...] {
                switch EventCatalogue.schema(for: input.envelope.type).map(Self.appender)?.route {
                case .retention?: _ = try await store.applyRetention(log: "acme", retention: input)
                case .erase?: _ = try await store.erase(log: "acme", subject: input.envelope.subject ?? "", erasure: input)
                default: Issue.record("\(input.envelope.type) is not a ledger fact, yet follows one in the catalogue")
                }
            }
        }
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            // The sealed branch below is exercised (OperatorDecision's reason, at least).
            #expect(inputs.contains { input in input.catalogued.personalFields.contains { Self.present($0, in: (try? JSONParser.parse(input.canonicalBytes)) ?? .null) } })
            var read: [StoredEvent] = []
            try await store.read(log: "acme") { read.append($0) }
            for (input, row) in zip(inputs, read) {
                let stored = try LedgerRecord(parsing: row.record).event
                let sent = try JSONParser.parse(input.canonicalBytes)
                let carriesPersonalData = input.catalogued.personalFields.contains { Self.present($0, in: sent) }
                if carriesPersonalData {
                    // Personal fields were sealed: what is stored differs exactly there.
                    #expect(stored != sent, "\(input.envelope.type) was stored with its personal data in clear")
                    #expect(!stored.paths(where: PersonalDataCipher.isSealed).isEmpty)
                } else {
                    #expect(CanonicalJSON.encode(stored) == input.canonicalBytes, "\(input.envelope.type)")
                }
                // Every stored event reads back as a valid payload of its type, derived facts included.
                let checked = try EventCatalogue.validate(type: row.type, schemaVersion: Int(stored["schemaVersion"]?.doubleValue ?? 0),
                                                          payload: input.catalogued.personalFields.isEmpty ? stored["payload"]! : sent["payload"]!,
                                                          context: DerivationContext(jurisdiction: input.envelope.jurisdiction?.code))
                #expect(stored["derived"] == (checked.derived.isEmpty ? nil : .object(checked.derived)), "\(input.envelope.type)")
            }
            let report = try await LogVerifier(store: store).verify(log: "acme")
            #expect(report.passed && report.verifiedCount == Int64(inputs.count))
        }
    }
}
