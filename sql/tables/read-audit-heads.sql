-- The head of each log's record of reads: its newest sequence number and chain hash, moved by
-- ledger.record_read in the same transaction as the row it adds, and only forward
-- (ledger.check_read_audit_head). `verify` compares it with the newest row, so deleting the
-- newest reads is caught unless the head is moved back too, behind the triggers' back (as with the
-- events' head, decision 0031). A table of its own, not columns of ledger.logs, so that a read
-- never waits for an append's lock on the log's row. Schema 18 fills it for logs read before.
CREATE TABLE IF NOT EXISTS ledger.read_audit_heads (
  log_id      text   PRIMARY KEY,
  seq         bigint NOT NULL CHECK (seq >= 1),
  chain_hash  bytea  NOT NULL CHECK (length(chain_hash) = 32)
);
COMMENT ON TABLE ledger.read_audit_heads IS 'Per log: the newest read recorded in ledger.read_audit (seq, chain hash)';
INSERT INTO ledger.read_audit_heads (log_id, seq, chain_hash)
SELECT DISTINCT ON (log_id) log_id, seq, chain_hash FROM ledger.read_audit ORDER BY log_id, seq DESC
ON CONFLICT (log_id) DO NOTHING;
