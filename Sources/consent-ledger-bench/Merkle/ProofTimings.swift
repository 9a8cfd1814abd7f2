import Foundation
import LedgerCore
import LedgerPostgres
import Logging
import PostgresNIO

/// Proof generation at the head beside a primary-key read, in milliseconds.
enum ProofTimings {
    /// Times `samples` of each, interleaved, at `size` leaves, and gives the report's table.
    static func measure(log: String, size: UInt64, samples: Int, client: LedgerPool, logger: Logger) async throws -> [String] {
        let tree = MerkleStore(pool: client, logger: logger)
        let root = try await tree.root(log: log, size: size)
        var generator = SystemRandomNumberGenerator()
        var lookup: [Double] = [], inclusion: [Double] = [], consistency: [Double] = [], pathLengths: [Int] = []
        Progress.note("timing \(samples) primary-key reads, inclusion proofs and consistency proofs at \(size) leaves, interleaved")
        for sample in 0..<samples {
            let index = UInt64.random(in: 0..<size, using: &generator)
            var watch = Stopwatch()
            let rows = try await client.query(
                "SELECT leaf_hash FROM ledger.events WHERE log_id = \(log) AND position = \(Int64(index) + 1)", logger: logger)
            var leaf: [UInt8] = []
            for try await hash in rows.decode(Data.self) { leaf = Array(hash) }
            lookup.append(watch.elapsedSeconds * 1000)

            watch = Stopwatch()
            let path = try await tree.inclusionProof(log: log, index: index, size: size)
            inclusion.append(watch.elapsedSeconds * 1000)
            try MerkleProofVerifier.verifyInclusion(leafHash: leaf, index: index, size: size, proof: path, root: root)
            pathLengths.append(path.count)

            let from = UInt64.random(in: 1..<size, using: &generator)
            watch = Stopwatch()
            let proof = try await tree.consistencyProof(log: log, from: from, to: size)
            consistency.append(watch.elapsedSeconds * 1000)
            if sample < 50 {  // each check needs the old root, one more read: a sample of them
                let oldRoot = try await tree.root(log: log, size: from)
                try MerkleProofVerifier.verifyConsistency(size1: from, size2: size, root1: oldRoot, root2: root, proof: proof)
            }
        }
        func row(_ name: String, _ values: [Double]) -> String {
            let sorted = values.sorted()
            func at(_ q: Double) -> String { ReportText.fixed(sorted[min(sorted.count - 1, Int(q * Double(sorted.count)))], 2) }
            return "| \(name) | \(at(0.5)) | \(at(0.99)) | \(ReportText.fixed(sorted.last ?? 0, 2)) | "
                + "\(ReportText.fixed(values.reduce(0, +) / Double(values.count), 2)) |"
        }
        return [
            "", "proofs against the tree of \(ReportText.grouped(Double(size))) leaves, \(samples) of each, random leaves and sizes, one "
                + "connection, as the auditor; every inclusion proof and 50 consistency proofs verified (not timed); audit paths of "
                + "\(pathLengths.min() ?? 0) to \(pathLengths.max() ?? 0) hashes",
            "", "| ms per call | p50 | p99 | max | mean |", "| --- | ---: | ---: | ---: | ---: |",
            row("baseline: one event's leaf hash by primary key", lookup),
            row("inclusion proof (MerkleStore.inclusionProof)", inclusion),
            row("consistency proof (MerkleStore.consistencyProof)", consistency),
        ]
    }
}
