import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// Makes the self-contained ``ProofBundle``s of docs/proofs.md from the stored tree, events and
/// checkpoints: read-only, so the auditor role can make them.
///
/// ```swift
/// let bundle = try await ProofMaker(pool: pool).inclusion(log: "acme", position: 7)
/// ```
public struct ProofMaker: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A maker over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.proofs")) {
        self.pool = pool
        self.logger = logger
    }

    /// The inclusion proof of the record at `position`, against the newest checkpoint (or the
    /// checkpoint of exactly `checkpointSize`), with a consistency proof from tree size `since`
    /// when given.
    public func inclusion(log: String, position: Int64, checkpointSize: Int64? = nil, since: Int64? = nil) async throws -> ProofBundle {
        guard position >= 1 else {
            throw LedgerError(.invalidRequest, "positions start at 1, not \(position)")
        }
        let checkpoint = try await checkpoint(log: log, size: checkpointSize)
        guard UInt64(position) <= checkpoint.treeSize else {
            throw LedgerError(.invalidRequest,
                              "position \(position) is after the checkpoint's tree (\(checkpoint.treeSize) leaves)",
                              hint: "Sign a newer checkpoint first: consent-ledger checkpoint --log \(log)")
        }
        let rows = try await pool.query(
            "SELECT record, leaf_hash FROM ledger.events WHERE log_id = \(log) AND position = \(position)", logger: logger)
        var found: (Data, Data)?
        for try await row in rows.decode((Data, Data).self) { found = row }
        guard let (record, leafHash) = found else {
            throw LedgerError(.integrityFailure, "log \(log) has no event at position \(position)")
        }
        let tree = MerkleStore(pool: pool, logger: logger)
        let path = try await tree.inclusionProof(log: log, index: UInt64(position - 1), size: checkpoint.treeSize)
        let inclusion = ProofBundle.Inclusion(position: UInt64(position), leafIndex: UInt64(position - 1), treeSize: checkpoint.treeSize,
                                              record: Array(record), leafHash: Array(leafHash), path: path)
        var consistency: ProofBundle.Consistency?
        if let since { consistency = try await self.consistency(log: log, from: since, to: checkpoint, tree: tree) }
        return ProofBundle(kind: .inclusion, log: log, checkpoint: checkpoint.published, inclusion: inclusion, consistency: consistency)
    }

    /// The position of the event `eventId` of `log` (a lowercase or uppercase UUID).
    public func position(log: String, eventId: String) async throws -> Int64 {
        guard let id = UUID(uuidString: eventId) else {
            throw LedgerError(.invalidRequest, "the event id '\(eventId)' is not a UUID", hint: "Give the eventId the append answered with.")
        }
        let rows = try await pool.query("SELECT position FROM ledger.events WHERE log_id = \(log) AND event_id = \(id)", logger: logger)
        for try await position in rows.decode(Int64.self) { return position }
        _ = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        throw LedgerError(.invalidRequest, "log \(log) has no event \(eventId.lowercased())", hint: "Check the log and the event id.")
    }

    /// The consistency proof from tree size `from` to the checkpoint of size `to` (the newest
    /// checkpoint when nil).
    public func consistency(log: String, from: Int64, to: Int64? = nil) async throws -> ProofBundle {
        let checkpoint = try await checkpoint(log: log, size: to)
        let tree = MerkleStore(pool: pool, logger: logger)
        let consistency = try await consistency(log: log, from: from, to: checkpoint, tree: tree)
        return ProofBundle(kind: .consistency, log: log, checkpoint: checkpoint.published, consistency: consistency)
    }

    private func consistency(log: String, from: Int64, to checkpoint: StoredCheckpoint,
                             tree: MerkleStore) async throws -> ProofBundle.Consistency {
        guard from >= 1, UInt64(from) <= checkpoint.treeSize else {
            throw LedgerError(.invalidRequest, "a consistency proof starts from a tree size of 1 to \(checkpoint.treeSize), not \(from)",
                              hint: "Give the size of the older checkpoint you trust (its second line).")
        }
        let fromRoot = try await tree.root(log: log, size: UInt64(from))
        let path = try await tree.consistencyProof(log: log, from: UInt64(from), to: checkpoint.treeSize)
        return ProofBundle.Consistency(fromSize: UInt64(from), fromRoot: fromRoot, toSize: checkpoint.treeSize, path: path)
    }

    /// The newest checkpoint, or the one of exactly `size`, or an error saying how to make one.
    private func checkpoint(log: String, size: Int64?) async throws -> StoredCheckpoint {
        let store = CheckpointStore(pool: pool, logger: logger)
        if let size {
            guard let found = try await store.at(log: log, size: size) else {
                throw LedgerError(.checkpointNotFound, "log \(log) has no checkpoint of size \(size)",
                                  hint: "Leave out the size to use the newest checkpoint.")
            }
            return found
        }
        _ = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        guard let found = try await store.latest(log: log) else {
            throw LedgerError(.checkpointNotFound, "log \(log) has no signed checkpoint yet",
                              hint: "Sign one first: consent-ledger checkpoint --log \(log)")
        }
        return found
    }
}
