extension StoredEvent {
    /// The event as one NDJSON line: the record bytes exactly as hashed, with
    /// `,"chainHash":"…","leafHash":"…"}` in place of the final `}` (remove those two members and
    /// the bytes hash to `leafHash`). What `consent-ledger events` and `GET /v1/logs/{log}/events` write.
    public var ndjsonLine: [UInt8] {
        var bytes = record
        if bytes.last == UInt8(ascii: "}") { bytes.removeLast() }
        bytes += Array(#","chainHash":"\#(LedgerHash.hex(chainHash))","leafHash":"\#(LedgerHash.hex(leafHash))"}"#.utf8)
        bytes.append(0x0A)
        return bytes
    }
}
