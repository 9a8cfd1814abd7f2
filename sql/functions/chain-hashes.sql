-- Running aggregate over leaf hashes in position order, giving each row's chain hash:
--   ledger.chain_hashes(head_chain_hash, leaf_hash) OVER (ORDER BY position ROWS UNBOUNDED PRECEDING)
CREATE OR REPLACE AGGREGATE ledger.chain_hashes(bytea, bytea) (
  SFUNC = ledger.chain_step,
  STYPE = bytea
);
