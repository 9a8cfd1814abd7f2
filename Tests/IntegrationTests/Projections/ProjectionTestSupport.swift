import Foundation
import LedgerCore
@testable import LedgerPostgres
import PostgresNIO
import Testing
import LedgerSimulation

/// Simulated logs and helpers shared by the projection tests.
enum ProjectionTestSupport {
    /// Appends a simulated history (HistorySimulator) to `log`; returns how many events.
    @discardableResult
    static func appendSimulated(_ db: TestDatabase, log: String = "sim", families: Int = 25, days: Int = 30,
                                seed: UInt64, batchSize: Int = 400) async throws -> Int {
        let lines = Array(try HistorySimulator(families: families, days: days, seed: seed).lines())
        try await db.as(.application) { client async throws in
            let store = EventStore(pool: client)
            var batch: [EventInput] = []
            for line in lines {
                batch.append(try EventInput(line: Array(line.utf8)))
                if batch.count == batchSize { _ = try await store.append(log: log, events: batch); batch.removeAll() }
            }
            if !batch.isEmpty { _ = try await store.append(log: log, events: batch) }
        }
        return lines.count
    }

    /// Creates `projection`'s live schema, empty (checkpoint 0), as a runner would find it after a
    /// fresh install: for tests that catch up step by step.
    static func installEmpty(_ projection: ProjectionDefinition, client: LedgerPool) async throws {
        try await client.withConnection { connection in
            try await ProjectionSchema.create(projection, schema: projection.name, on: connection, logger: .init(label: "test"))
        }
    }

    /// The checkpoint of `projection` on `log`: 0 while the log has no checkpoint row yet (the
    /// runner writes it at its first step), said explicitly rather than left to a helper's default.
    static func checkpoint(_ projection: ProjectionDefinition, log: String, client: LedgerPool) async throws -> Int64 {
        try await client.int(PostgresQuery(unsafeSQL:
            "SELECT coalesce(max(position), 0) FROM \(projection.name).checkpoints WHERE log_id = '\(log)'"))
    }
}

/// A small deterministic random number generator (SplitMix64), so a failing chunking can be
/// reproduced from its seed.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Expects two row dumps to be equal; on a difference records one short issue (the counts and the
/// first rows that differ) instead of printing both dumps whole.
func expectSameRows(_ a: [String], _ b: [String], _ label: String, sourceLocation: SourceLocation = #_sourceLocation) {
    guard a != b else { return }
    let onlyA = Set(a).subtracting(b).sorted().prefix(2)
    let onlyB = Set(b).subtracting(a).sorted().prefix(2)
    Issue.record("\(label): \(a.count) rows vs \(b.count) rows; only in the first: \(Array(onlyA)); only in the second: \(Array(onlyB))",
                 sourceLocation: sourceLocation)
}
