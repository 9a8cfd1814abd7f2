/// Where a sealed report was computed (its member `ledger`, decision 0011): the log, the position it
/// stops at, the chain hash there, and the signed checkpoint its evidence is pinned to, so anyone
/// can check it against `consent-ledger verify` or the published checkpoint.
public struct ReportLedger: Codable, Sendable, Equatable {
    /// The log.
    public var log: String
    /// The last position the report takes into account.
    public var position: Int64
    /// The chain hash at `position` (32 zero bytes for position 0), hex.
    public var headHash: String
    /// The newest signed checkpoint whose tree size is at most `position`; null when none is.
    @Nullable public var checkpoint: ReportCheckpoint?

    /// Where a report was computed.
    public init(log: String, position: Int64, headHash: String, checkpoint: ReportCheckpoint?) {
        self.log = log
        self.position = position
        self.headHash = headHash
        self.checkpoint = checkpoint
    }
}

/// A signed checkpoint as a report prints it (docs/proofs.md): what it commits to, who signed it,
/// when, and the signed note itself, exactly as published. Read from the stored checkpoint's own
/// JSON (`StoredCheckpoint.json`), so its members are written there once.
public struct ReportCheckpoint: Codable, Sendable, Equatable {
    /// The number of events (leaves) the signed tree holds.
    public var treeSize: UInt64
    /// The RFC 9162 root hash of that tree, hex.
    public var rootHash: String
    /// The log's chain hash at position `treeSize`, hex.
    public var chainHash: String
    /// The checkpoint's origin line: `<key name>/<log>`.
    public var origin: String
    /// The signing key's name.
    public var keyName: String
    /// The signing key's id, 8 hex digits.
    public var keyId: String
    /// The public key that signed it (`NAME+KEYID+BASE64`).
    public var verifierKey: String
    /// When it was signed (RFC 3339).
    public var signedAt: String
    /// The signed note, exactly as published.
    public var note: String
}
