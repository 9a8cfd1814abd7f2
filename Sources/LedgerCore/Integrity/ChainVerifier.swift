/// Checks a log's events one at a time, in position order, in constant memory: the pure core of
/// `consent-ledger verify`. Feed it every row with ``check(position:record:leafHash:chainHash:)``
/// (or ``check(_:)``); it returns the first problem; then ``checkHead(position:chainHash:)``
/// compares the log's head row with the last event. `verify` runs one per range of positions,
/// each started from the stored chain hash before its range (``init(log:after:chainHash:)``).
///
/// For each event it checks: the position follows the previous one; the leaf hash is
/// SHA-256(0x00 || record); the chain hash is SHA-256(previous chain || leaf); and the record is
/// the JSON object the ledger writes. The record is skimmed (``RecordSkim``), not parsed, when it
/// is in the form the ledger writes; anything else is parsed in full. That the other columns
/// agree with the record they were copied from is checked by the caller: `LogVerifier` compares
/// the skimmed values with the columns and hands every event it cannot decide to the database's
/// own rule (`ledger.event_column_problem`, which the insert trigger applies too).
public struct ChainVerifier: Sendable {
    /// What ``check(position:record:leafHash:chainHash:)`` learnt of a good event's record.
    public enum Checked: Sendable {
        /// The record is in the ledger's own form; here is where its fields are.
        case skimmed(RecordSkim)
        /// The record was parsed in full (it is valid, but not in the form the skim recognises):
        /// only the database can compare its columns with it.
        case parsed
    }

    /// The log being verified.
    public let log: String
    /// The position of the last event checked (0 before any).
    public private(set) var lastPosition: Int64
    /// The chain hash of the last event checked (``LedgerHash/genesis`` before any).
    public var lastChainHash: [UInt8] { last.bytes }
    /// How many events passed.
    public private(set) var verifiedCount: Int64 = 0
    /// How many records are valid but not in RFC 8785 canonical form (appended by a client that
    /// does not canonicalize, such as a hand-written psql call). Not an integrity failure: the
    /// hash covers the bytes as stored.
    public private(set) var nonCanonicalCount: Int64 = 0

    private var last: Hash32

    /// Starts at the beginning of a log, or after a position whose chain hash is known.
    public init(log: String, after position: Int64 = 0, chainHash: [UInt8] = LedgerHash.genesis) {
        self.log = log
        self.lastPosition = position
        self.last = chainHash.withUnsafeBytes { Hash32($0) } ?? Hash32.zero
    }

    /// Checks the next event of a ``StoredEvent``; returns the problem if there is one (and then
    /// stops advancing).
    public mutating func check(_ row: StoredEvent) -> IntegrityProblem? {
        guard row.log == log else {
            return IntegrityProblem(position: row.position, kind: .column,
                                    detail: "column log_id is \(row.log), but the log being verified is \(log)")
        }
        return row.record.withUnsafeBytes { record in
            row.leafHash.withUnsafeBytes { leaf in
                row.chainHash.withUnsafeBytes { chain in
                    switch check(position: row.position, record: record, leafHash: leaf, chainHash: chain) {
                    case .success: return nil
                    case .failure(let problem): return problem
                    }
                }
            }
        }
    }

    /// Checks the next event from its stored bytes, without copying them; returns what was learnt
    /// of its record, or the problem (and then stops advancing).
    public mutating func check(position: Int64, record: UnsafeRawBufferPointer, leafHash: UnsafeRawBufferPointer,
                               chainHash: UnsafeRawBufferPointer) -> Result<Checked, IntegrityProblem> {
        guard position == lastPosition + 1 else {
            return .failure(IntegrityProblem(position: position, kind: .gap,
                                             detail: "expected position \(lastPosition + 1) after \(lastPosition), found \(position)"))
        }
        let leaf = MerkleHash.leaf(record)
        guard Hash32(leafHash) == leaf else {
            return .failure(IntegrityProblem(position: position, kind: .leafHash,
                                             detail: "stored \(LedgerHash.hex(leafHash)), SHA-256(0x00 || record) is \(LedgerHash.hex(leaf.bytes)): the record or its leaf hash was changed after it was appended"))
        }
        let chain = LedgerHash.chain(previous: last, leaf: leaf)
        guard Hash32(chainHash) == chain else {
            return .failure(IntegrityProblem(position: position, kind: .chainHash,
                                             detail: "stored \(LedgerHash.hex(chainHash)), SHA-256(previous chain || leaf) is \(LedgerHash.hex(chain.bytes)): the chain was rewritten"))
        }
        let checked: Checked
        if let skim = RecordSkim(record) {
            checked = .skimmed(skim)
        } else {
            let bytes = Array(record)
            let parsed: LedgerRecord
            do { parsed = try LedgerRecord(parsing: bytes) } catch {
                return .failure(IntegrityProblem(position: position, kind: .record, detail: error.message))
            }
            guard case .object = parsed.event else {
                return .failure(IntegrityProblem(position: position, kind: .record, detail: "the record's event is not an object"))
            }
            if parsed.canonicalBytes != bytes { nonCanonicalCount += 1 }
            checked = .parsed
        }
        lastPosition = position
        last = chain
        verifiedCount += 1
        return .success(checked)
    }

    /// Compares the log's head row with the last event checked.
    public func checkHead(position: Int64, chainHash: [UInt8]) -> IntegrityProblem? {
        guard position == lastPosition, chainHash == lastChainHash else {
            return IntegrityProblem(position: position, kind: .head,
                                    detail: "the head says position \(position) with chain hash \(LedgerHash.hex(chainHash)), but the newest event is position \(lastPosition) with chain hash \(LedgerHash.hex(lastChainHash)): events were removed or added around the append path")
        }
        return nil
    }
}
