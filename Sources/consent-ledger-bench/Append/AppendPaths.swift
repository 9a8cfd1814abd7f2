import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// The timed parts of the append benchmark: the ledger's append, and the plain `unnest` insert
/// of the same rows. Each appends all batches sequentially, one transaction per batch, and
/// returns the round's wall time and each batch's.
enum AppendPaths {
    /// Appends `batches` to `log` through `EventStore.append` (mode `batch`, with the function of
    /// the store's role: the embedded writer's `ledger.append_checked_events`, decisions 0072 and
    /// 0074), or with `copying` through `EventStore.appendCopying` (mode `bulk`, the owner's load,
    /// decision 0042), then checks that the log's head is where it should be.
    static func ledger(store: EventStore, log: String, batches: [[EventInput]], copying: Bool = false) async throws -> (Double, [Double]) {
        var batchSeconds: [Double] = []
        batchSeconds.reserveCapacity(batches.count)
        let round = Stopwatch()
        for batch in batches {
            let watch = Stopwatch()
            let result = copying ? try await store.appendCopying(log: log, events: batch) : try await store.append(log: log, events: batch)
            batchSeconds.append(watch.elapsedSeconds)
            guard result.events.count == batch.count, !result.idempotentReplay else {
                throw BenchError("EventStore.append returned \(result.events.count) events for a batch of \(batch.count) (replay: \(result.idempotentReplay))")
            }
        }
        let seconds = round.elapsedSeconds
        let expected = Int64(batches.reduce(0) { $0 + $1.count })
        let head = try await store.requireHead(log: log)
        guard head.position == expected else {
            throw BenchError("log \(log) ends at position \(head.position), expected \(expected)")
        }
        return (seconds, batchSeconds)
    }

    /// Inserts `batches` into `table` with one `INSERT … SELECT * FROM unnest(…)` per batch, then
    /// checks the row count.
    static func unnest(client: LedgerPool, table: PlainTable, batches: [PlainBatch], logger: Logger) async throws -> (Double, [Double]) {
        var batchSeconds: [Double] = []
        batchSeconds.reserveCapacity(batches.count)
        let round = Stopwatch()
        for batch in batches {
            let watch = Stopwatch()
            let rows = try await client.query(batch.insert(into: table), logger: logger)
            for try await _ in rows {}
            batchSeconds.append(watch.elapsedSeconds)
        }
        let seconds = round.elapsedSeconds
        let expected = Int64(batches.reduce(0) { $0 + $1.count })
        let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT count(*) FROM \(table.qualifiedName)"), logger: logger)
        for try await count in rows.decode(Int64.self) where count != expected {
            throw BenchError("\(table.qualifiedName) holds \(count) rows, expected \(expected)")
        }
        return (seconds, batchSeconds)
    }
}
