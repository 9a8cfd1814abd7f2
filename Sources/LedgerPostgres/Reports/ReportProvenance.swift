import Foundation
import LedgerCore
import LedgerReportModel
import Logging
import PostgresNIO

/// Where a report was computed: the log, the position it stops at, and the chain hash there (the
/// head hash as of that position), so that anyone can check it against `verify` or a checkpoint.
public struct ReportProvenance: Sendable, Equatable {
    /// The log.
    public var log: String
    /// The last position the report takes into account.
    public var position: Int64
    /// The chain hash at `position` (32 zero bytes for position 0), hex.
    public var headHash: String
    /// The newest signed checkpoint whose tree size is at most `position` (nil when none is):
    /// what the report's evidence is pinned to. Records up to its size can be proved included.
    public var checkpoint: StoredCheckpoint?

    /// The provenance of a report on `log` as of `position` (nil: the head), checked against the log.
    public static func resolve(log: String, position: Int64?, pool: LedgerPool,
                               logger: Logger = Logger(label: "consent-ledger.reports")) async throws -> ReportProvenance {
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        let at = position ?? head.position
        guard at >= 0, at <= head.position else {
            throw LedgerError(.invalidRequest, "log \(log) has no position \(at): its head is \(head.position)",
                              hint: "Give --as-of from 0 to \(head.position), or leave it out for the head.")
        }
        guard at > 0 else { return ReportProvenance(log: log, position: 0, headHash: LedgerHash.hex([UInt8](repeating: 0, count: 32))) }
        let checkpoint = try await CheckpointStore(pool: pool, logger: logger).latest(log: log, atOrBelow: at)
        for try await hash in try await pool.query(
            "SELECT chain_hash FROM ledger.events WHERE log_id = \(log) AND position = \(at)", logger: logger).decode(ByteBuffer.self) {
            return ReportProvenance(log: log, position: at, headHash: LedgerHash.hex(Array(buffer: hash)), checkpoint: checkpoint)
        }
        throw LedgerError(.integrityFailure, "log \(log) has no event at position \(at) though its head is \(head.position)",
                          hint: "Run `consent-ledger verify --log \(log)`.")
    }

    /// As a report's `ledger` member; its checkpoint read from the stored checkpoint's JSON.
    public var ledger: ReportLedger {
        get throws {
            ReportLedger(log: log, position: position, headHash: headHash, checkpoint: try checkpoint.map(Self.reportCheckpoint))
        }
    }

    /// A stored checkpoint as a report prints it, read from its own JSON (``StoredCheckpoint/json``),
    /// so that its members are written there once.
    static func reportCheckpoint(_ stored: StoredCheckpoint) throws -> ReportCheckpoint {
        try ReportDecoding.decode(ReportCheckpoint.self, from: stored.json, reportName: "checkpoint")
    }
}
