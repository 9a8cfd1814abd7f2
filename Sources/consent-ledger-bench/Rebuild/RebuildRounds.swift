import LedgerPostgres
import Logging
import PostgresNIO

/// The measurement proper: every projection (``ProjectionDefinition/all``) rebuilt from position
/// 0 by ``ProjectionRebuilder``, one at a time (`consent-ledger project rebuild NAME`), then all
/// six together (`project rebuild all`: each range read and parsed once by a connection of its
/// own while the folder folds the range before; one swap). Every rebuild starts after a CHECKPOINT.
enum RebuildRounds {
    /// The timings of all rounds.
    struct Timings: Sendable {
        /// One per projection, in ``ProjectionDefinition/all``'s order; rows per round = positions.
        var projections: [PathTiming]
        /// Events each rebuild alone read (of the types it reads; the same every round).
        var eventsRead: [Int]
        /// The six rebuilt one after the other: each round's sum.
        var oneAtATime: PathTiming
        /// The six rebuilt together (`project rebuild all`).
        var onePass: PathTiming
        /// Events the rebuild of all six read (once, of the types any of them reads).
        var onePassEvents = 0
        /// The server processes of the rebuilds of all six (the folder's connection, the reader's), every
        /// round: their peaks.
        var onePassBackends: [BackendMemory.Peak] = []
    }

    /// Where the server runs, to watch the memory of a rebuild's backends.
    struct Server: Sendable {
        /// The target, for a fresh pool per rebuild of all six (its backends are new processes).
        var target: DatabaseTarget
        /// The cluster's data directory (the postmaster's pid file).
        var dataDirectory: String
    }

    /// Rebuilds in steps of `chunkSize`, `rounds` times; checks that each rebuild folded exactly
    /// `positions` positions (the log's length).
    static func measure(client: LedgerPool, server: Server, chunkSize: Int64, rounds: Int, positions: Int,
                        logger: Logger) async throws -> Timings {
        let definitions = ProjectionDefinition.all
        var timings = Timings(projections: definitions.map { PathTiming(name: $0.name, eventsPerRound: positions) },
                              eventsRead: definitions.map { _ in 0 },
                              oneAtATime: PathTiming(name: "all six, one at a time", eventsPerRound: positions),
                              onePass: PathTiming(name: "all six together", eventsPerRound: positions))
        let rebuilder = ProjectionRebuilder(pool: client, chunkSize: chunkSize, logger: logger)
        for round in 1...rounds {
            var sum = 0.0
            for (index, definition) in definitions.enumerated() {
                let (seconds, events) = try await rebuild([definition], rebuilder: rebuilder, client: client,
                                                          positions: positions, round: round, logger: logger)
                timings.projections[index].add(round: seconds, batches: [])
                timings.eventsRead[index] = events
                sum += seconds
            }
            timings.oneAtATime.add(round: sum, batches: [])
            // On a pool of its own, whose backends are watched from their start.
            let user = server.target.settings(role: .administrator).username
            let memory = BackendMemory(dataDirectory: server.dataDirectory, user: user)
            let (seconds, events) = try await LedgerDatabase.with(server.target, role: .administrator, keepRunning: true,
                                                                  logger: logger) { pool in
                let sampler = Task { await memory?.run(every: .milliseconds(50)) }
                defer { sampler.cancel() }
                return try await rebuild(definitions, rebuilder: ProjectionRebuilder(pool: pool, chunkSize: chunkSize, logger: logger),
                                         client: pool,
                                         positions: positions, round: round, logger: logger)
            }
            timings.onePassBackends += memory?.result.peaks ?? []
            timings.onePass.add(round: seconds, batches: [])
            timings.onePassEvents = events
        }
        return timings
    }

    /// One timed rebuild of `definitions` (together) after a CHECKPOINT; returns its seconds and
    /// the events it staged.
    private static func rebuild(_ definitions: [ProjectionDefinition], rebuilder: ProjectionRebuilder, client: LedgerPool,
                                positions: Int, round: Int, logger: Logger) async throws -> (Double, Int) {
        let name = definitions.count == 1 ? definitions[0].name : "all six together"
        try await BenchSQL.checkpoint(on: client, logger: logger)
        let watch = Stopwatch()
        let result = try await rebuilder.rebuild(definitions) { progress in
            if !progress.isFinal { Progress.note("  " + progress.line) }
        }
        let seconds = watch.elapsedSeconds
        guard result.positions == Int64(positions) else {
            throw BenchError("\(name) was rebuilt from \(result.positions) positions, expected \(positions)")
        }
        Progress.note("round \(round): \(name) rebuilt in \(String(format: "%.2f", seconds)) s "
            + "(\(Int(Double(positions) / seconds)) positions/s, \(result.events) events staged)")
        return (seconds, result.events)
    }
}
