import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Surprising facts are stored, and the anomalies projection finds them")
struct AnomalyTests {
    /// An event of `type` built from the catalogue's own example payload, with `changes` applied,
    /// on the stream its id belongs to.
    static func line(_ type: String, at time: String, _ changes: [String: JSONValue]) -> String {
        let schema = EventCatalogue.schema(for: type)!
        guard case .object(var payload) = schema.example else { fatalError("example is not an object") }
        for (key, value) in changes { payload[key] = value }
        let home = StreamConvention.homes[type]!
        let stream = home.prefix + (payload[home.field]?.stringValue ?? "")
        let payloadText = CanonicalJSON.encodeString(.object(payload))
        return #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"\#(stream)","type":"\#(type)","schemaVersion":\#(schema.version),"occurredAt":"\#(time)","subject":"p_1","actor":{"kind":"app"},"payload":\#(payloadText)}"#
    }

    static let q1 = "00000000-0000-4000-8000-0000000000a1"
    static let q2 = "00000000-0000-4000-8000-0000000000a2"
    static let q3 = "00000000-0000-4000-8000-0000000000a3"

    /// Seven events that give two findings: an answer after its question expired (position 2, an
    /// anomaly) and an answer without a question (3, a violation). Fresh event ids at each call.
    static var firstBatch: [String] {
        [
            line("PermissionQuestionSent", at: "2026-11-01T10:00:00Z", ["questionId": .string(q1), "expirationDate": "2026-11-08T10:00:00Z"]),
            line("ParentalAnswerReceived", at: "2026-11-09T10:00:00Z", ["questionId": .string(q1)]),
            line("ParentalAnswerReceived", at: "2026-11-02T10:00:00Z", ["questionId": .string(q2)]),
            line("PermissionQuestionSent", at: "2026-11-01T10:00:00Z", ["questionId": .string(q3), "expirationDate": "2026-11-08T10:00:00Z"]),
            line("ParentalAnswerReceived", at: "2026-11-02T10:00:00Z", ["questionId": .string(q3)]),
            line("AgeExceptionRequested", at: "2026-11-01T10:00:00Z", ["exceptionId": "e1"]),
            line("AgeExceptionDecided", at: "2026-11-01T11:00:00Z", ["exceptionId": "e1"]),
        ]
    }

    /// Two more (positions 8 and 9 after ``firstBatch``), two more anomalies: e1 decided again, and
    /// e2 decided though never requested.
    static var laterBatch: [String] {
        [
            line("AgeExceptionDecided", at: "2026-11-01T12:00:00Z", ["exceptionId": "e1"]),
            line("AgeExceptionDecided", at: "2026-11-01T12:00:00Z", ["exceptionId": "e2"]),
        ]
    }

    @Test("answers without a question or after expiry, and exceptions decided twice or never requested")
    func marked() async throws {
        let db = try await TestDatabase.create()
        let (lines, later) = (Self.firstBatch, Self.laterBatch)
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            _ = try await store.append(log: "acme", events: try lines.map { try EventInput(line: Array($0.utf8)) })
            _ = try await store.append(log: "acme", events: try later.map { try EventInput(line: Array($0.utf8)) })
            // Every event was stored all the same.
            #expect(try await store.head(log: "acme")?.position == 9)
        }
        try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()
            let rows = try await client.query(
                "SELECT position, kind, source, evidence FROM anomalies.findings ORDER BY position, kind")
            var found: [String] = []
            for try await (position, kind, source, evidence) in rows.decode((Int64, String, String, [Int64]).self) {
                found.append("\(position) \(kind) (\(source)) \(evidence)")
            }
            // An answer with no question before it breaks a rule (answer-before-question, docs/rules.md).
            #expect(found == [
                "2 answer-after-expiry (catalogue) [1, 2]",
                "3 answer-before-question (rule) [3]",
                "8 exception-decided-twice (catalogue) [7, 8]",
                "9 decision-without-request (catalogue) [9]",
            ])
        }
    }
}
