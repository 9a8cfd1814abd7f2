-- How far each log's Merkle tree has been built: every complete subtree of the first `size`
-- leaves is in ledger.merkle_nodes. Appends do not wait for the tree; ledger.extend_merkle_tree
-- catches it up (the checkpoint command does, before it signs).
CREATE TABLE IF NOT EXISTS ledger.merkle_trees (
  log_id      text        PRIMARY KEY REFERENCES ledger.logs (log_id),
  size        bigint      NOT NULL DEFAULT 0 CHECK (size >= 0),
  updated_at  timestamptz NOT NULL DEFAULT clock_timestamp()
);
COMMENT ON TABLE ledger.merkle_trees IS 'Per log: the number of leaves whose Merkle subtrees are all stored';
