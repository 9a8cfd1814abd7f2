import Foundation
import LedgerCore
import Logging
import PostgresNIO

/// The C2SP tlog-tiles resources of a log, read from the stored tree (decision 0046): hash tiles
/// from `ledger.merkle_nodes` (level 0 from `ledger.events.leaf_hash`) and entry bundles from
/// `ledger.events.record`. Nothing is stored twice: a tile is a range read of rows that exist
/// anyway, one query each.
///
/// A tile is served once the stored tree (``MerkleStore/size(log:)``) covers all of it; its bytes
/// then never change, whatever is appended later.
///
/// ```swift
/// let bytes = try await TileStore(pool: pool).read(log: "acme", tile: TileAddress(kind: .hashes(level: 0), index: 0))
/// ```
public struct TileStore: Sendable {
    /// The pool.
    public let pool: LedgerPool
    /// Where queries log.
    public let logger: Logger

    /// A store over a running pool.
    public init(pool: LedgerPool, logger: Logger = Logger(label: "consent-ledger.tiles")) {
        self.pool = pool
        self.logger = logger
    }

    /// The largest record an entry bundle can hold: C2SP prefixes each with a big-endian uint16.
    public static let maxEntryBytes = Int(UInt16.max)

    /// The tile's bytes: `width` 32-byte hashes, or `width` entries each prefixed by its length as
    /// a big-endian uint16. Throws ``LedgerError/Code/tileNotFound`` when the stored tree does
    /// not cover the tile (or a record is too long for a bundle), and
    /// ``LedgerError/Code/logNotFound`` for a log that does not exist.
    public func read(log: String, tile: TileAddress) async throws -> [UInt8] {
        let built = try await MerkleStore(pool: pool, logger: logger).size(log: log)
        guard let needed = tile.leavesNeeded, needed <= built else {
            if built == 0 { _ = try await EventStore(pool: pool, logger: logger).requireHead(log: log) }
            throw LedgerError(.tileNotFound, "log \(log)'s Merkle tree is built to \(built) leaves; \(tile.path) needs "
                                  + (tile.leavesNeeded.map { "\($0)" } ?? "more than 2^64"),
                              hint: "Read the tiles a signed checkpoint needs (GET …/checkpoint first); the tree grows as checkpoints are signed.")
        }
        let first = Int64(tile.firstNode)
        let last = first + Int64(tile.width) - 1
        // Each row is numbered from first + 1 (positions, or node indexes + 1) so a gap is seen.
        let query: PostgresQuery = switch tile.kind {
        case .entries: """
            SELECT position, record FROM ledger.events
             WHERE log_id = \(log) AND position BETWEEN \(first + 1) AND \(last + 1) ORDER BY position
            """
        case .hashes(level: 0): """
            SELECT position, leaf_hash FROM ledger.events
             WHERE log_id = \(log) AND position BETWEEN \(first + 1) AND \(last + 1) ORDER BY position
            """
        case .hashes: """
            SELECT index + 1, hash FROM ledger.merkle_nodes
             WHERE log_id = \(log) AND level = \(Int16(tile.treeLevel)) AND index BETWEEN \(first) AND \(last) ORDER BY index
            """
        }
        let rows = try await pool.query(query, logger: logger)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(tile.width * (tile.kind == .entries ? 600 : MerkleHash.byteCount))
        var expected = first + 1
        for try await (numbered, value) in rows.decode((Int64, Data).self) {
            guard numbered == expected else { break }
            expected += 1
            if tile.kind == .entries {
                guard value.count <= Self.maxEntryBytes else {
                    throw LedgerError(.tileNotFound, "the record at position \(numbered) is \(value.count) bytes; an entry bundle holds "
                                          + "records of at most \(Self.maxEntryBytes) bytes (C2SP's uint16 length)",
                                      hint: "Read it with GET …/proofs/inclusion?position=\(numbered), which carries the record whatever its size.")
                }
                bytes.append(UInt8(value.count >> 8))
                bytes.append(UInt8(value.count & 0xFF))
            }
            bytes.append(contentsOf: value)
        }
        guard expected == last + 2 else {
            throw LedgerError(.integrityFailure, "log \(log) lacks the \(tile.kind == .entries ? "record" : "stored hash") "
                                  + "\(expected - 1) of \(tile.path), inside its built tree of \(built) leaves",
                              hint: "Run `consent-ledger verify --log \(log)`.")
        }
        return bytes
    }
}
