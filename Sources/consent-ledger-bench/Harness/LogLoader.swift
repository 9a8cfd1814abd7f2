import LedgerCore
import LedgerPostgres

/// Fills one log with a simulated history through `EventStore.append` (`ledger.append_events`,
/// every check and hash), in big batches, making the next batch while the current one is being
/// appended, with progress on standard error. Setup for the rebuild and regulator benchmarks, not a
/// measurement.
enum LogLoader {
    /// What was loaded.
    struct Loaded: Sendable {
        /// Events appended (the log's head position).
        var events: Int
        /// The history they come from.
        var families: Int
        var days: Int
        /// Mean size of the canonical events, in bytes.
        var meanEventBytes: Int
        /// Wall time of the load, in seconds.
        var seconds: Double
    }

    /// Appends `load`'s history to `log`, in its batches, and checks that the log's head ends at
    /// its count of events.
    static func load(_ load: LogLoad, log: String, store: EventStore) async throws -> Loaded {
        let (count, families, seed, batchSize) = (load.history.events, load.history.families, load.history.seed, load.batchSize)
        let source = try SimulatedEvents(count: count, families: families, seed: seed, log: log)
        Progress.note("loading \(count) events from \(families) families over \(await source.days) days (seed \(seed)) "
            + "into log \(log), batches of \(batchSize)")
        let watch = Stopwatch()
        var lastNote = 0.0
        var loaded = 0
        var next = Task { try await source.nextBatch(batchSize) }
        while true {
            let batch = try await next.value
            if batch.isEmpty { break }
            next = Task { try await source.nextBatch(batchSize) }
            let result = try await store.append(log: log, events: batch)
            guard result.events.count == batch.count, !result.idempotentReplay else {
                throw BenchError("ledger.append_events returned \(result.events.count) events for a batch of \(batch.count) "
                    + "(replay: \(result.idempotentReplay))")
            }
            loaded += batch.count
            let elapsed = watch.elapsedSeconds
            if elapsed - lastNote >= 5 || loaded == count {
                lastNote = elapsed
                let rate = Double(loaded) / elapsed
                Progress.note("loading: \(loaded)/\(count) events (\(100 * loaded / count)%), \(Int(rate)) events/s, "
                    + "about \(Int(Double(count - loaded) / rate)) s left")
            }
        }
        let seconds = watch.elapsedSeconds
        let head = try await store.requireHead(log: log)
        guard head.position == Int64(count), loaded == count else {
            throw BenchError("log \(log) ends at position \(head.position) after \(loaded) events, expected \(count)")
        }
        return Loaded(events: count, families: families, days: await source.days,
                      meanEventBytes: await source.canonicalBytes / max(1, count), seconds: seconds)
    }
}
