import Foundation
import LedgerCore
import Logging
import NIOCore
import PostgresNIO

/// The one reader of a log range for the Swift folds: the records of positions (`after`,
/// `through`], in position order, of the types asked for and passing a ``FoldInput/Filter``, each
/// parsed once into a typed ``LedgerEvent``.
///
/// The rows come as one streamed result (PostgresNIO fetches them in large messages as the
/// consumer keeps up); only the `record` column is read: it holds everything the folds need.
enum LogReader {
    /// The events of `log` at positions (`after`, `through`] of `types` that pass `filter`.
    ///
    /// - Throws: ``UnreadableEvent`` for a record that does not parse as its type (the fold
    ///   stops before it, as it does for an SQL fold's failure).
    static func events(log: String, after: Int64, through: Int64, types: [String], filter: FoldInput.Filter = .none,
                       on connection: PostgresConnection, logger: Logger) async throws -> [LedgerEvent] {
        var binds = PostgresBindings(capacity: 7)
        binds.append(log)
        binds.append(after)
        binds.append(through)
        binds.append(types)
        binds.append(filter.subject)
        binds.append(filter.recordedBy)
        binds.append(filter.occurredBy)
        var records: [[UInt8]] = []
        records.reserveCapacity(Int(min(through - after, 100_000)))
        let rows = try await connection.watchedQuery(PostgresQuery(unsafeSQL: selectSQL, binds: binds), logger: logger)
        for try await record in rows.decode(ByteBuffer.self) {
            records.append(Array(record.readableBytesView))
        }
        return try await parse(records)
    }

    /// `SELECT record …`: with a subject, the events about it and those about no subject (a change
    /// declared for a whole app), which its projections use too.
    static let selectSQL = """
        SELECT record FROM ledger.events
         WHERE log_id = $1 AND position > $2 AND position <= $3 AND type = ANY ($4::text[])
           AND ($5::text IS NULL OR subject = $5 OR subject IS NULL)
           AND ($6::timestamptz IS NULL OR recorded_at <= $6)
           AND ($7::timestamptz IS NULL OR occurred_at <= $7)
         ORDER BY position
        """

    /// Records at or above this many are parsed on several tasks.
    static let parallelFrom = 4_096

    /// Parses `records` in order, on as many tasks as there are cores when there are many.
    static func parse(_ records: [[UInt8]]) async throws -> [LedgerEvent] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard records.count >= parallelFrom, cores > 1 else { return try records.map(parseOne) }
        let slice = (records.count + cores - 1) / cores
        return try await withThrowingTaskGroup(of: (Int, [LedgerEvent]).self) { tasks in
            for start in stride(from: 0, to: records.count, by: slice) {
                let part = records[start..<min(records.count, start + slice)]
                tasks.addTask { (start, try part.map(parseOne)) }
            }
            var parts: [(Int, [LedgerEvent])] = []
            for try await part in tasks { parts.append(part) }
            return parts.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
    }

    private static func parseOne(_ record: [UInt8]) throws -> LedgerEvent {
        do { return try LedgerEvent(record: record) } catch {
            throw UnreadableEvent(message: error.message)
        }
    }

    /// A stored record that does not read as its type: the fold cannot take it.
    struct UnreadableEvent: Error, CustomStringConvertible {
        /// What is wrong, naming the position.
        var message: String
        var description: String { message }
    }
}
