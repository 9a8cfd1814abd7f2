import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Surprising facts are stored and marked as anomalies")
struct AnomalyTests {
    static func line(_ stream: String, _ type: String, at time: String, payload: String) -> String {
        #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"\#(stream)","type":"\#(type)","schemaVersion":1,"occurredAt":"\#(time)","subject":"p_1","actor":{"kind":"app"},"payload":\#(payload)}"#
    }

    @Test("answers without a question or after expiry, and exceptions decided twice or never requested")
    func marked() async throws {
        let db = try await TestDatabase.create()
        let lines = [
            Self.line("question-q1", "PermissionQuestionSent", at: "2026-11-01T10:00:00Z", payload: #"{"questionId":"q1","expirationDate":"2026-11-08T10:00:00Z"}"#),
            Self.line("question-q1", "ParentalAnswerReceived", at: "2026-11-09T10:00:00Z", payload: #"{"questionId":"q1","answer":"approval"}"#),
            Self.line("question-q2", "ParentalAnswerReceived", at: "2026-11-02T10:00:00Z", payload: #"{"questionId":"q2","answer":"denial"}"#),
            Self.line("question-q3", "PermissionQuestionSent", at: "2026-11-01T10:00:00Z", payload: #"{"questionId":"q3","expirationDate":"2026-11-08T10:00:00Z"}"#),
            Self.line("question-q3", "ParentalAnswerReceived", at: "2026-11-02T10:00:00Z", payload: #"{"questionId":"q3","answer":"approval"}"#),
            Self.line("exception-e1", "AgeExceptionRequested", at: "2026-11-01T10:00:00Z", payload: #"{"exceptionId":"e1"}"#),
            Self.line("exception-e1", "AgeExceptionDecided", at: "2026-11-01T11:00:00Z", payload: #"{"exceptionId":"e1","decision":"approved"}"#),
        ]
        let later = [
            Self.line("exception-e1", "AgeExceptionDecided", at: "2026-11-01T12:00:00Z", payload: #"{"exceptionId":"e1","decision":"declined"}"#),
            Self.line("exception-e2", "AgeExceptionDecided", at: "2026-11-01T12:00:00Z", payload: #"{"exceptionId":"e2","decision":"approved"}"#),
        ]
        try await db.as(.application) { client async throws in
            let store = EventStore(client: client)
            _ = try await store.append(log: "acme", events: try lines.map { try EventInput(line: Array($0.utf8)) })
            _ = try await store.append(log: "acme", events: try later.map { try EventInput(line: Array($0.utf8)) })
            let rows = try await client.query("SELECT position, kind, related_position FROM ledger.anomalies ORDER BY position, kind")
            var found: [String] = []
            for try await (position, kind, related) in rows.decode((Int64, String, Int64?).self) {
                found.append("\(position) \(kind)\(related.map { " (see \($0))" } ?? "")")
            }
            #expect(found == [
                "2 answer-after-expiry (see 1)",
                "3 answer-without-question",
                "8 exception-decided-twice (see 7)",
                "9 decision-without-request",
            ])
            // Every event was stored all the same.
            #expect(try await store.head(log: "acme")?.position == 9)
        }
    }
}
