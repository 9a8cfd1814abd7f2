import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing

@Suite("Replay and explain")
struct ReplayAndExplainTests {
    /// The subjects with the most events, and one with a rescinded consent.
    static func busySubjects(_ client: LedgerPool, limit: Int) async throws -> [String] {
        var subjects: [String] = []
        for try await subject in try await client.query("""
            SELECT subject FROM ledger.events WHERE log_id = 'sim' AND subject IS NOT NULL
             GROUP BY subject ORDER BY count(*) DESC, subject LIMIT \(limit)
            """).decode(String.self) { subjects.append(subject) }
        for try await subject in try await client.query(
            "SELECT subject FROM ledger.events WHERE type = 'ConsentRescinded' ORDER BY position LIMIT 1").decode(String.self) {
            subjects.append(subject)
        }
        return subjects
    }

    @Test("replay's state after the last event is what subject_state and consent_register hold for the subject", arguments: [UInt64(33), 32])
    func replayEndsInProjectionState(seed: UInt64) async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, seed: seed)
        try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()
            let subjects = try await Self.busySubjects(client, limit: 4)
            #expect(subjects.count == 5)
            for subject in subjects {
                let history = try await SubjectReplay(pool: client).replay(log: "sim", subject: subject)
                let events = try await client.int("SELECT count(*) FROM ledger.events WHERE log_id = 'sim' AND subject = \(subject)")
                #expect(history.steps.count == Int(events))
                #expect(history.steps.map(\.event.position) == history.steps.map(\.event.position).sorted())
                let live = try await SubjectSnapshot.live(log: "sim", subject: subject, pool: client)
                #expect(live.count == 1)
                let replayed = CanonicalJSON.encodeString(history.steps.last!.state)
                #expect(replayed == CanonicalJSON.encodeString(try JSONParser.parse(live[0])), "subject \(subject)")
            }
        }
    }

    @Test("replay as of a position stops there and ends in the time-travelled state")
    func replayAsOfPosition() async throws {
        let db = try await TestDatabase.create()
        let count = try await ProjectionTestSupport.appendSimulated(db, seed: 33)
        try await db.as(.auditor) { client async throws in
            let subject = try await Self.busySubjects(client, limit: 1)[0]
            let position = Int64(count / 2)
            let history = try await SubjectReplay(pool: client).replay(log: "sim", subject: subject, asOf: .position(position))
            #expect(!history.steps.isEmpty)
            #expect(history.steps.allSatisfy { $0.event.position <= position })
            let (_, travelled) = try await TimeTravel(pool: client).snapshots(log: "sim", asOf: .position(position), subject: subject)
            #expect(CanonicalJSON.encodeString(history.steps.last!.state) == CanonicalJSON.encodeString(try JSONParser.parse(travelled[0])))
            #expect(history.steps.contains { $0.changedState } && history.steps.contains { !$0.changedState })
        }
    }

    @Test("replay of an unknown subject is a clear error")
    func unknownSubject() async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, families: 3, days: 2, seed: 34)
        try await db.as(.auditor) { client async throws in
            await #expect { try await SubjectReplay(pool: client).replay(log: "sim", subject: "p_nobody") } throws: { error in
                (error as? LedgerError)?.code == .subjectNotFound && "\(error)".contains("log sim has no event about subject p_nobody")
            }
            await #expect { try await SubjectReplay(pool: client).replay(log: "nolog", subject: "p_nobody") } throws: { error in
                (error as? LedgerError)?.code == .logNotFound
            }
        }
    }

    @Test("explain cites the gate in force and exactly the events it cited, and flags a gate with no basis")
    func explainCitesEvidence() async throws {
        let db = try await TestDatabase.create()
        try await ProjectionTestSupport.appendSimulated(db, families: 60, days: 30, seed: 35)
        // An app that opens a feature citing no event: the simulator does it rarely (1.5% of the
        // changes that need approval), too rarely to count on in a history this size, so one is added.
        let basisless = #"{"eventId":"\#(UUID().uuidString.lowercased())","stream":"subject-p_basisless","type":"AccessGateApplied","#
            + #""schemaVersion":1,"occurredAt":"2026-10-15T10:00:00Z","subject":"p_basisless","actor":{"kind":"app"},"#
            + #""app":{"bundleId":"com.example.chatterbox","appVersion":"8.1.0","platform":"iOS"},"#
            + #""payload":{"basis":[],"feature":"messaging","policyVersion":"2026-Q3","state":"open"}}"#
        try await db.as(.application) { client async throws in
            _ = try await EventStore(pool: client).append(log: "sim", events: [try EventInput(line: Array(basisless.utf8))])
        }
        try await db.as(.administrator) { client async throws in
            try await ProjectionRunner(pool: client).runOnce()
            // Every feature row of a few subjects: the explanation names the same gate and basis.
            let rows = try await client.query("""
                SELECT subject, bundle_id, feature, state, position, basis::text[] FROM subject_state.features
                 ORDER BY position DESC LIMIT 6
                """)
            var checked = 0
            for try await (subject, app, feature, state, position, basis) in rows.decode((String, String, String, String, Int64, [String]).self) {
                let answer = try await FeatureExplanation.explain(log: "sim", subject: subject, feature: feature, asOf: .head, pool: client)
                let decision = try #require(answer.decisions.first { $0.app == app })
                #expect(decision.state == state)
                #expect(decision.gate.position == position)
                #expect(Set(decision.cited.map(\.eventId)) == Set(basis.map { $0.lowercased() }))
                #expect(decision.history.last?.position == position)
                checked += 1
            }
            #expect(checked == 6)
            // The feature opened with no basis: explain reports the finding.
            let flagged = try await FeatureExplanation.explain(log: "sim", subject: "p_basisless", feature: "messaging",
                                                               asOf: .head, pool: client)
            #expect(flagged.decisions.contains { d in d.cited.isEmpty && d.rules.contains { $0.rule == "access-opened-without-basis" && $0.failed } })
            // A feature the log never gates is an error, not a "closed" answer.
            let subject = try await Self.busySubjects(client, limit: 1)[0]
            await #expect { try await FeatureExplanation.explain(log: "sim", subject: subject, feature: "noSuchFeature", asOf: .head, pool: client) }
                throws: { ($0 as? LedgerError)?.code == .featureNotFound }
            // A feature gated for others but never for this subject is closed, and the answer lists
            // the subject's features.
            var elsewhere: [String] = []
            for try await feature in try await client.query("""
                SELECT DISTINCT feature FROM subject_state.features f WHERE log_id = 'sim'
                   AND NOT EXISTS (SELECT 1 FROM subject_state.features g WHERE g.log_id = 'sim' AND g.subject = \(subject) AND g.feature = f.feature)
                 ORDER BY feature LIMIT 1
                """).decode(String.self) { elsewhere.append(feature) }
            let feature = try #require(elsewhere.first, "the simulation gates features this subject never had")
            let none = try await FeatureExplanation.explain(log: "sim", subject: subject, feature: feature, asOf: .head, pool: client)
            #expect(none.decisions.isEmpty)
            #expect(!none.otherFeatures.isEmpty)
        }
    }
}
