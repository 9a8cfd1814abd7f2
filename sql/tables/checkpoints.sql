-- Signed checkpoints: the tree size and root hash of a log at one moment, signed with the
-- ledger's Ed25519 key as a C2SP signed note (docs/proofs.md). note is the exact text published.
-- chain_hash is the log's chain hash at tree_size (so a report can start its check there).
-- verifier_key is the public key that signed it, in the note verifier-key encoding. Written only
-- by ledger.record_checkpoint, never changed.
CREATE TABLE IF NOT EXISTS ledger.checkpoints (
  log_id        text        NOT NULL REFERENCES ledger.logs (log_id),
  tree_size     bigint      NOT NULL CHECK (tree_size >= 1),
  root_hash     bytea       NOT NULL CHECK (length(root_hash) = 32),
  chain_hash    bytea       NOT NULL CHECK (length(chain_hash) = 32),
  origin        text        NOT NULL,
  key_name      text        NOT NULL,
  key_id        bigint      NOT NULL CHECK (key_id BETWEEN 0 AND 4294967295),
  verifier_key  text        NOT NULL,
  note          text        NOT NULL,
  signed_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (log_id, tree_size)
);
COMMENT ON TABLE ledger.checkpoints IS 'Signed checkpoints (C2SP signed notes) of each log''s Merkle tree';
