import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing

/// A rebuild stages each range once for every projection (decision 0044): the stage tables go when
/// it ends, a failed staging stops only the projections that read the event, and a stage schema
/// left by a killed rebuild is cleared by the next.
@Suite("A rebuild's shared staging")
struct RebuildStageTests {
    @Test("ranges cover every log from 0 to its head, in chunks, numbered in order; an empty log has none")
    func ranges() {
        let ranges = RebuildStage.ranges(heads: [("a", 5), ("b", 0), ("c", 4)], chunkSize: 2)
        #expect(ranges.map(\.index) == Array(0..<5))
        #expect(ranges.map { "\($0.log):\($0.after)-\($0.through)" } == ["a:0-2", "a:2-4", "a:4-5", "c:0-2", "c:2-4"])
    }

    @Test("the Swift folds make one group, the SQL ones split the fold statements about evenly; every group keeps the catalogue's order, every projection is in one")
    func groups() {
        let all = ProjectionDefinition.all
        let swift = all.filter(\.isFoldedInSwift), sql = all.filter { !$0.isFoldedInSwift }
        for count in 1...all.count {
            let groups = ProjectionRebuilder.groups(all, count: count)
            // The Swift folds share one group (one read of each range); the SQL ones split the rest.
            #expect(groups.count == (count == 1 || swift.isEmpty ? min(count, all.count) : 1 + min(count - 1, sql.count)))
            if count > 1, !swift.isEmpty { #expect(groups.first == swift) }
            #expect(groups.joined().map(\.name).sorted() == all.map(\.name).sorted())
            for group in groups {
                #expect(group.map(\.name) == all.map(\.name).filter { name in group.contains { $0.name == name } })
            }
        }
        if sql.count > 1 {
            let loads = ProjectionRebuilder.groups(sql, count: 2).map { $0.reduce(0) { $0 + $1.foldStatements.count } }
            let heaviest = sql.map(\.foldStatements.count).max() ?? 0
            #expect(abs(loads[0] - loads[1]) <= heaviest, "\(loads)")
        }
    }

    /// A version-1 AgeRangeShared: the staging upcasts its payload (`ledger.upcast_age_range_shared_v1`).
    static func versionOneEvent(subject: String) -> String {
        """
        {"actor":{"kind":"guardian"},"app":{"appVersion":"2.0.1","bundleId":"com.example.kidsdraw","osVersion":"26.3","platform":"iOS"},\
        "eventId":"\(UUID().uuidString.lowercased())","occurredAt":"2026-11-20T08:15:00Z",\
        "payload":{"ageRangeDeclaration":"guardianDeclared","lowerBound":13,\
        "parentalControls":{"communicationLimits":true,"significantAppChangeApprovalRequired":false},"upperBound":15},\
        "schemaVersion":1,"stream":"subject-\(subject)","subject":"\(subject)","type":"AgeRangeShared"}
        """
    }

    @Test("rebuild all, when the staging fails on one log's event: the projections reading it stall just before it, the rest and the other log are complete, no stage table is left")
    func stagingFailure() async throws {
        let db = try await TestDatabase.create()
        let goodHead = Int64(try await ProjectionTestSupport.appendSimulated(db, log: "good", families: 4, days: 6, seed: 181))
        let before = Int64(try await ProjectionTestSupport.appendSimulated(db, log: "bad", families: 3, days: 5, seed: 182))
        _ = try await db.as(.application) { client async throws in
            try await EventStore(pool: client).append(log: "bad", events: [
                try EventInput(line: Array(Self.versionOneEvent(subject: "p_0e1d01").utf8))])
        }
        let stalledAt = before + 1
        let badHead = stalledAt + Int64(try await ProjectionTestSupport.appendSimulated(db, log: "bad", families: 3, days: 5, seed: 183))

        try await db.as(.administrator) { client async throws in
            // A staging bug, standing in: the upcast fails (a data exception, as a bad cast would).
            _ = try await client.raw("ALTER FUNCTION ledger.upcast_age_range_shared_v1(jsonb) RENAME TO upcast_age_range_shared_v1_kept")
            _ = try await client.raw("""
                CREATE FUNCTION ledger.upcast_age_range_shared_v1(p_payload jsonb) RETURNS jsonb LANGUAGE plpgsql AS
                $$ BEGIN RAISE EXCEPTION 'upcast bug' USING ERRCODE = '22023'; END $$
                """)
            let result = try await ProjectionRebuilder(pool: client, chunkSize: 40).rebuild(ProjectionDefinition.all)
            _ = try await client.raw("DROP FUNCTION ledger.upcast_age_range_shared_v1(jsonb)")
            _ = try await client.raw("ALTER FUNCTION ledger.upcast_age_range_shared_v1_kept(jsonb) RENAME TO upcast_age_range_shared_v1")

            // The SQL folds' staging fails; a Swift fold reads the log itself, upcasts in Swift and goes on.
            let readers = ProjectionDefinition.all.filter { $0.reads.contains("AgeRangeShared") && !$0.isFoldedInSwift }
            #expect(!readers.isEmpty && readers.count < ProjectionDefinition.all.count)
            #expect(Set(result.stalls.map(\.projection)) == Set(readers.map(\.name)), "\(result.stalls)")
            #expect(result.stalls.allSatisfy { $0.log == "bad" && $0.position == stalledAt && $0.error.contains("22023") },
                    "\(result.stalls)")
            for projection in ProjectionDefinition.all {
                #expect(try await ProjectionTestSupport.checkpoint(projection, log: "good", client: client) == goodHead, "\(projection.name)")
                let expected = readers.contains(projection) ? stalledAt - 1 : badHead
                #expect(try await ProjectionTestSupport.checkpoint(projection, log: "bad", client: client) == expected, "\(projection.name)")
            }
            #expect(try await client.int("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'projections\\_\\_stage\\_%'") == 0)
        }
    }

    @Test("a stage schema whose rebuild is gone is dropped by the next rebuild")
    func leftoverDropped() async throws {
        let db = try await TestDatabase.create()
        _ = try await ProjectionTestSupport.appendSimulated(db, log: "sim", families: 2, days: 3, seed: 184)
        try await db.as(.administrator) { client async throws in
            // As a killed rebuild leaves it: the schema the owner's, a range table the session's.
            // pid 0 is never a backend's.
            _ = try await client.raw("CREATE SCHEMA projections__stage_0 AUTHORIZATION consent_ledger_projector")
            _ = try await client.raw("CREATE UNLOGGED TABLE projections__stage_0.range_0 (n int)")
            _ = try await ProjectionRebuilder(pool: client).rebuild(try .named("pending"))
            #expect(try await client.int("SELECT count(*) FROM pg_namespace WHERE nspname LIKE 'projections\\_\\_stage\\_%'") == 0)
        }
    }
}
