-- The Merkle tree of each log (RFC 9162), kept as its complete subtrees: one row per interior node
-- that covers 2^level leaves, level >= 1 (level 0, the leaves, are ledger.events.leaf_hash: leaf
-- index i is the event at position i + 1). Node (level, index) covers the leaves
-- [index * 2^level, (index + 1) * 2^level) and its hash is
--   sha256(0x01 || node(level - 1, 2 * index) || node(level - 1, 2 * index + 1)).
-- Any subtree an RFC 9162 proof or root needs is one of these, or (on the tree's right edge) a
-- fold of at most log2(n) of them, so a root, an inclusion proof or a consistency proof reads
-- O(log n) rows (decision 0015). Written only by ledger.extend_merkle_tree, never changed.
CREATE TABLE IF NOT EXISTS ledger.merkle_nodes (
  log_id  text     NOT NULL,
  level   smallint NOT NULL CHECK (level BETWEEN 1 AND 62),
  index   bigint   NOT NULL CHECK (index >= 0),
  hash    bytea    NOT NULL CHECK (length(hash) = 32),
  PRIMARY KEY (log_id, level, index)
);
COMMENT ON TABLE ledger.merkle_nodes IS 'Complete interior nodes of each log''s RFC 9162 Merkle tree (leaves are events.leaf_hash)';
