/// Checks a log's events one at a time, in position order, in constant memory: the pure core of
/// `consent-ledger verify`. Feed it every row with ``check(_:)``; it returns the first problem;
/// then ``checkHead(position:chainHash:)`` compares the log's head row with the last event.
///
/// For each event it checks: the position follows the previous one; the leaf hash is
/// SHA-256(0x00 || record); the chain hash is SHA-256(previous chain || leaf); and the record is
/// the JSON object the ledger writes. That the other columns agree with the record they were
/// copied from is checked by the database, in one set-based pass (`ledger.first_column_problem`,
/// which `LogVerifier` runs beside this one): a rule written once, for the insert trigger and
/// for verify alike.
public struct ChainVerifier: Sendable {
    /// The log being verified.
    public let log: String
    /// The position of the last event checked (0 before any).
    public private(set) var lastPosition: Int64
    /// The chain hash of the last event checked (``LedgerHash/genesis`` before any).
    public private(set) var lastChainHash: [UInt8]
    /// How many events passed.
    public private(set) var verifiedCount: Int64 = 0
    /// How many records are valid but not in RFC 8785 canonical form (appended by a client that
    /// does not canonicalize, such as a hand-written psql call). Not an integrity failure: the
    /// hash covers the bytes as stored.
    public private(set) var nonCanonicalCount: Int64 = 0

    /// Starts at the beginning of a log, or after a position whose chain hash is known.
    public init(log: String, after position: Int64 = 0, chainHash: [UInt8] = LedgerHash.genesis) {
        self.log = log
        self.lastPosition = position
        self.lastChainHash = chainHash
    }

    /// Checks the next event; returns the problem if there is one (and then stops advancing).
    public mutating func check(_ row: StoredEvent) -> IntegrityProblem? {
        guard row.log == log else {
            return IntegrityProblem(position: row.position, kind: .column,
                                    detail: "column log_id is \(row.log), but the log being verified is \(log)")
        }
        guard row.position == lastPosition + 1 else {
            return IntegrityProblem(position: row.position, kind: .gap,
                                    detail: "expected position \(lastPosition + 1) after \(lastPosition), found \(row.position)")
        }
        let leaf = LedgerHash.leaf(row.record)
        guard leaf == row.leafHash else {
            return IntegrityProblem(position: row.position, kind: .leafHash,
                                    detail: "stored \(LedgerHash.hex(row.leafHash)), SHA-256(0x00 || record) is \(LedgerHash.hex(leaf)): the record or its leaf hash was changed after it was appended")
        }
        let chain = LedgerHash.chain(previous: lastChainHash, leaf: leaf)
        guard chain == row.chainHash else {
            return IntegrityProblem(position: row.position, kind: .chainHash,
                                    detail: "stored \(LedgerHash.hex(row.chainHash)), SHA-256(previous chain || leaf) is \(LedgerHash.hex(chain)): the chain was rewritten")
        }
        if let problem = checkRecord(row) { return problem }
        lastPosition = row.position
        lastChainHash = chain
        verifiedCount += 1
        return nil
    }

    /// Compares the log's head row with the last event checked.
    public func checkHead(position: Int64, chainHash: [UInt8]) -> IntegrityProblem? {
        guard position == lastPosition, chainHash == lastChainHash else {
            return IntegrityProblem(position: position, kind: .head,
                                    detail: "the head says position \(position) with chain hash \(LedgerHash.hex(chainHash)), but the newest event is position \(lastPosition) with chain hash \(LedgerHash.hex(lastChainHash)): events were removed or added around the append path")
        }
        return nil
    }

    private mutating func checkRecord(_ row: StoredEvent) -> IntegrityProblem? {
        let record: LedgerRecord
        do { record = try LedgerRecord(parsing: row.record) } catch {
            return IntegrityProblem(position: row.position, kind: .record, detail: error.message)
        }
        guard case .object = record.event else {
            return IntegrityProblem(position: row.position, kind: .record, detail: "the record's event is not an object")
        }
        if record.canonicalBytes != row.record {
            nonCanonicalCount += 1
        }
        return nil
    }
}
