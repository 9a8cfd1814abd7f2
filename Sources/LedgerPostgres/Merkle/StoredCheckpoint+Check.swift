import LedgerCore
import Logging

extension StoredCheckpoint {
    /// What no longer holds of this checkpoint: its size within the log's head, its Ed25519 signature by the key it names, its
    /// root against the stored Merkle tree at its size (O(log n) reads), and its chain hash against
    /// the log's at that position. Empty when it all holds. What a report and `verify
    /// --since-checkpoint` rely on before re-hashing only the positions after it.
    public func problems(pool: LedgerPool, logger: Logger) async throws -> [String] {
        // A checkpoint beyond the head: events the ledger signed are gone (the newest deleted and the
        // head moved back behind the triggers' back). Nothing at its size is left to compare with.
        let head = try await EventStore(pool: pool, logger: logger).requireHead(log: log)
        guard Int64(treeSize) <= head.position else {
            return ["a checkpoint of \(treeSize) events was signed, but the log's head is at position \(head.position): "
                    + "events the ledger signed are gone"]
        }
        var problems: [String] = []
        if let problem = signatureProblem { problems.append(problem) }
        if try await MerkleStore(pool: pool, logger: logger).root(log: log, size: treeSize) != rootHash {
            problems.append("the checkpoint of \(treeSize) leaves: the stored Merkle tree's root at that size is not the signed root")
        }
        let chain = try? await CheckpointStore(pool: pool, logger: logger).chainHash(log: log, position: Int64(treeSize))
        if chain != chainHash {
            problems.append("the checkpoint of \(treeSize) leaves records a chain hash that is not the log's at position \(treeSize)")
        }
        return problems
    }
}
