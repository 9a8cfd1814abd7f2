import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The record of reads of subjects' data: every read through the console, the HTTP API or the CLI
/// is appended (``record(log:access:what:subject:detail:)``) before it is answered, hash-chained per
/// log like the events, so that "who accessed this child's records" has an answer that cannot be
/// quietly edited (docs/console.md).
public struct ReadAuditStore: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A store over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.read-audit")) {
        self.pool = pool
        self.logger = logger
    }

    /// Appends one read; returns its seq.
    @discardableResult
    public func record(log: String, access: ReadAccess, what: String, subject: String, detail: String) async throws -> Int64 {
        do {
            let rows = try await pool.query("""
                SELECT ledger.record_read(\(log), \(access.channel.rawValue), \(access.reader), \(what), \(subject), \(detail), \(access.client))
                """, logger: logger)
            for try await seq in rows.decode(Int64.self) { return seq }
        } catch let error as LedgerError where error.code == .logNotFound {
            // The store's one wording of a missing log, with the logs there are.
            _ = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
            throw error
        }
        throw LedgerError(.integrityFailure, "the read of \(subject)'s data was not recorded")
    }

    /// The reads of `log` (of `subject` only, when given, with the reads of every subject, recorded
    /// as `*`), newest first, at most `limit`, before `before` (a seq) when given.
    public func list(log: String, subject: String? = nil, limit: Int = 100, before: Int64? = nil) async throws -> [ReadRecord] {
        let rows = try await pool.query("""
            SELECT seq, to_char(read_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), channel, reader, client, what, subject, detail,
                   encode(chain_hash, 'hex')
              FROM ledger.read_audit
             WHERE log_id = \(log) AND (\(subject)::text IS NULL OR subject = \(subject) OR subject = '*') AND seq < \(before ?? Int64.max)
             ORDER BY seq DESC LIMIT \(Int64(limit))
            """, logger: logger)
        var records: [ReadRecord] = []
        for try await (seq, at, channel, reader, client, what, subject, detail, chain) in rows.decode(
            (Int64, String, String, String, String, String, String, String, String).self) {
            records.append(ReadRecord(seq: seq, readAt: at,
                                      access: ReadAccess(channel: ReadAccess.Channel(rawValue: channel) ?? .api, reader: reader, client: client),
                                      what: what, subject: subject, detail: detail, chainHash: chain))
        }
        return records
    }

    /// Checks `log`'s record of reads: every row's chain hash recomputed from its record and the one
    /// before (no sequence number missing), every column compared with the record it is a copy of
    /// (channel, reader, what, subject, detail, client, time), and the head
    /// (`ledger.read_audit_heads`) against the newest row, so that the newest reads deleted are
    /// caught. Nil when it all holds, else the first problem.
    public func verify(log: String) async throws -> String? {
        let rows = try await pool.query("""
            SELECT seq, record, chain_hash, to_char(read_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'),
                   channel, reader, what, subject, detail, client
              FROM ledger.read_audit WHERE log_id = \(log) ORDER BY seq
            """, logger: logger)
        var chain = [UInt8](repeating: 0, count: 32)
        var expected: Int64 = 1
        for try await (seq, record, stored, readAt, channel, reader, what, subject, detail, client)
            in rows.decode((Int64, String, Data, String, String, String, String, String, String, String).self) {
            guard seq == expected else { return "the record of reads of log \(log) skips from \(expected - 1) to \(seq)" }
            chain = LedgerHash.sha256(chain + LedgerHash.sha256(Array(record.utf8)))
            guard chain == Array(stored) else { return "read \(seq) of log \(log): its chain hash does not follow from its record and the one before" }
            let columns: [(String, String, JSONValue)] = [
                ("log_id", log, .string(log)), ("seq", String(seq), .number(Double(seq))), ("read_at", readAt, .string(readAt)),
                ("channel", channel, .string(channel)), ("reader", reader, .string(reader)), ("what", what, .string(what)),
                ("subject", subject, .string(subject)), ("detail", detail, .string(detail)), ("client", client, .string(client)),
            ]
            guard case .object(let members)? = try? JSONParser.parse(Array(record.utf8)) else {
                return "read \(seq) of log \(log): its record is not a JSON object"
            }
            let recordKeys = ["log_id": "log", "seq": "seq", "read_at": "readAt"]
            for (column, stored, value) in columns where members[recordKeys[column] ?? column] != value {
                return "read \(seq) of log \(log): column \(column) is \(stored) but its record says "
                    + (members[recordKeys[column] ?? column].map { String(decoding: CanonicalJSON.encode($0), as: UTF8.self) } ?? "nothing")
            }
            expected += 1
        }
        let newest = expected - 1
        var head: (Int64, Data)?
        for try await row in try await pool.query(
            "SELECT seq, chain_hash FROM ledger.read_audit_heads WHERE log_id = \(log)", logger: logger).decode((Int64, Data).self) {
            head = row
        }
        switch head {
        case nil where newest > 0:
            return "the record of reads of log \(log) holds \(newest) reads but has no head"
        case let (seq, hash)? where seq != newest || Array(hash) != chain:
            return "the record of reads of log \(log) ends at read \(newest), but its head says \(seq)"
                + (seq == newest ? " with another chain hash" : ": the newest reads were removed")
        default:
            return nil
        }
    }
}
