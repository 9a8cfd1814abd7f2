import Foundation
import LedgerCore
import LedgerPostgres
import PostgresNIO

/// One batch of rows for the plain tables, computed in Swift before the clock starts: the very
/// rows `ledger.append_events` would store (positions, stream versions, the record bytes, leaf and
/// chain hashes), one array per column of `ledger.events`, ready for one `unnest` insert.
struct PlainBatch: Sendable {
    // One array per column of ledger.events, in its order; element i of each is row i.
    var logIds: [String] = []
    var positions: [Int64] = []
    var eventIds: [UUID] = []
    var streams: [String] = []
    var streamVersions: [Int64] = []
    var types: [String] = []
    var schemaVersions: [Int32] = []
    var occurredAt: [Date] = []
    var recordedAt: [Date] = []
    var subjects: [String?] = []
    var actorKinds: [String] = []
    var actorIds: [String?] = []
    var correlationIds: [String?] = []
    var causationIds: [String?] = []
    var idempotencyKeys: [String?] = []
    var records: [ByteBuffer] = []
    var leafHashes: [ByteBuffer] = []
    var chainHashes: [ByteBuffer] = []

    /// How many rows.
    var count: Int { positions.count }
    /// The bytes of the record column.
    var recordBytes: Int { records.reduce(0) { $0 + $1.readableBytes } }

    /// The rows of a whole workload in batches of `batchSize`, as one log `log` starting from an
    /// empty head. Each batch gets the idempotency key `EventStore` would give it, and one
    /// `recordedAt` (the ledger takes one clock reading per batch).
    static func batches(of workload: Workload, batchSize: Int, log: String) throws -> [PlainBatch] {
        var batches: [PlainBatch] = []
        var versions: [String: Int64] = [:]
        var chain = LedgerHash.genesis
        var position: Int64 = 0
        var recordedMicros = Int64(Date().timeIntervalSince1970 * 1_000_000)
        for start in stride(from: 0, to: workload.events.count, by: batchSize) {
            let range = start..<min(start + batchSize, workload.events.count)
            let events = Array(workload.events[range])
            let key = EventStore.defaultIdempotencyKey(for: events)
            let recordedText = UTCTime.microseconds(recordedMicros)
            let recordedDate = Date(timeIntervalSince1970: Double(recordedMicros) / 1_000_000)
            var batch = PlainBatch()
            for (offset, event) in events.enumerated() {
                let envelope = event.envelope
                position += 1
                let version = (versions[envelope.stream] ?? 0) + 1
                versions[envelope.stream] = version
                let record = LedgerRecord(event: try JSONParser.parse(event.canonicalBytes), log: log, position: position,
                                          recordedAt: recordedText, streamVersion: version).canonicalBytes
                let leaf = LedgerHash.leaf(record)
                chain = LedgerHash.chain(previous: chain, leaf: leaf)
                guard let eventId = UUID(uuidString: envelope.eventId) else {
                    throw LedgerError(.invalidField, "generated event id \(envelope.eventId) is not a UUID")
                }
                batch.logIds.append(log)
                batch.positions.append(position)
                batch.eventIds.append(eventId)
                batch.streams.append(envelope.stream)
                batch.streamVersions.append(version)
                batch.types.append(envelope.type)
                batch.schemaVersions.append(Int32(envelope.schemaVersion))
                batch.occurredAt.append(Date(timeIntervalSince1970: Double(workload.occurredAt[range.lowerBound + offset])))
                batch.recordedAt.append(recordedDate)
                batch.subjects.append(envelope.subject)
                batch.actorKinds.append(envelope.actor.kind)
                batch.actorIds.append(envelope.actor.id)
                batch.correlationIds.append(envelope.correlationId)
                batch.causationIds.append(envelope.causationId)
                batch.idempotencyKeys.append(key)
                batch.records.append(ByteBuffer(bytes: record))
                batch.leafHashes.append(ByteBuffer(bytes: leaf))
                batch.chainHashes.append(ByteBuffer(bytes: chain))
            }
            batches.append(batch)
            recordedMicros += 9_000
        }
        return batches
    }

    /// `INSERT INTO <table> SELECT * FROM unnest(…)`, one array parameter per column.
    func insert(into table: PlainTable) -> PostgresQuery {
        """
        INSERT INTO \(unescaped: table.qualifiedName) SELECT * FROM unnest(\
        \(logIds)::text[], \(positions)::bigint[], \(eventIds)::uuid[], \(streams)::text[], \
        \(streamVersions)::bigint[], \(types)::text[], \(schemaVersions)::integer[], \
        \(occurredAt)::timestamptz[], \(recordedAt)::timestamptz[], \(NullableTextArray(subjects))::text[], \
        \(actorKinds)::text[], \(NullableTextArray(actorIds))::text[], \(NullableTextArray(correlationIds))::text[], \
        \(NullableTextArray(causationIds))::text[], \(NullableTextArray(idempotencyKeys))::text[], \
        \(records)::bytea[], \(leafHashes)::bytea[], \(chainHashes)::bytea[])
        """
    }
}
