import LedgerPostgres
import Logging
import PostgresNIO

/// The measurement proper: every projection (``ProjectionDefinition/all``) rebuilt from position
/// 0 by ``ProjectionRebuilder``, as `consent-ledger project rebuild all` does, timed one by one
/// and as a whole. Each round starts after a CHECKPOINT and rebuilds the five back to back.
enum RebuildRounds {
    /// The timings of all rounds.
    struct Timings: Sendable {
        /// One per projection, in ``ProjectionDefinition/all``'s order; rows per round = positions.
        var projections: [PathTiming]
        /// Events of the types each projection reads (the same every round).
        var eventsRead: [Int]
        /// The five in sequence.
        var allFive: PathTiming
    }

    /// Rebuilds every projection `rounds` times in steps of `chunkSize`; checks that each rebuild
    /// folded exactly `positions` positions (the log's length).
    static func measure(client: PostgresClient, chunkSize: Int64, rounds: Int, positions: Int,
                        logger: Logger) async throws -> Timings {
        let definitions = ProjectionDefinition.all
        var timings = Timings(projections: definitions.map { PathTiming(name: $0.name, eventsPerRound: positions) },
                              eventsRead: definitions.map { _ in 0 },
                              allFive: PathTiming(name: "all five (in sequence)", eventsPerRound: positions))
        let rebuilder = ProjectionRebuilder(client: client, chunkSize: chunkSize, logger: logger)
        for round in 1...rounds {
            try await PlainTable.execute("CHECKPOINT", on: client, logger: logger)
            let all = Stopwatch()
            for (index, definition) in definitions.enumerated() {
                let watch = Stopwatch()
                let result = try await rebuilder.rebuild(definition) { progress in
                    if !progress.isFinal { Progress.note("  " + progress.line) }
                }
                let seconds = watch.elapsedSeconds
                guard result.positions == Int64(positions) else {
                    throw BenchError("\(definition.name) was rebuilt from \(result.positions) positions, expected \(positions)")
                }
                timings.projections[index].add(round: seconds, batches: [])
                timings.eventsRead[index] = result.events
                Progress.note("round \(round): \(definition.name) rebuilt in \(String(format: "%.2f", seconds)) s "
                    + "(\(Int(Double(positions) / seconds)) positions/s, \(result.events) events read)")
            }
            timings.allFive.add(round: all.elapsedSeconds, batches: [])
        }
        return timings
    }
}
