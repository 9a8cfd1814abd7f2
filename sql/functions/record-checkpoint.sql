-- ledger.record_checkpoint: stores a signed checkpoint made by the consent-ledger checkpoint
-- command (which signs it with a key the database never sees, so the signature is checked by the
-- command and by every verifier, not here). Refuses a checkpoint beyond the built tree, one
-- smaller than the log's last checkpoint, and one whose chain hash is not the log's at its size.
-- Returns the stored row's signed_at. Re-recording the same size returns the existing row's time
-- if the root is the same, and refuses a different root (CL009).
CREATE OR REPLACE FUNCTION ledger.record_checkpoint(
  p_log_id text, p_tree_size bigint, p_root_hash bytea, p_chain_hash bytea, p_origin text,
  p_key_name text, p_key_id bigint, p_verifier_key text, p_note text
) RETURNS timestamptz
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ledger, pg_temp
AS $fn$
DECLARE
  v_tree     bigint;
  v_last     ledger.checkpoints%ROWTYPE;
  v_chain    bytea;
BEGIN
  SELECT size INTO v_tree FROM ledger.merkle_trees WHERE log_id = p_log_id FOR UPDATE;
  IF NOT FOUND OR p_tree_size > v_tree THEN
    RAISE EXCEPTION USING ERRCODE = 'CL009',
      MESSAGE = format('log %L: no checkpoint of size %s, the Merkle tree is built to %s', p_log_id, p_tree_size, coalesce(v_tree, 0)),
      HINT = 'Extend the tree first (ledger.extend_merkle_tree).';
  END IF;
  SELECT * INTO v_last FROM ledger.checkpoints WHERE log_id = p_log_id ORDER BY tree_size DESC LIMIT 1;
  IF FOUND AND v_last.tree_size = p_tree_size THEN
    IF v_last.root_hash = p_root_hash THEN
      RETURN v_last.signed_at;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'CL009',
      MESSAGE = format('log %L already has a checkpoint of size %s with a different root hash', p_log_id, p_tree_size);
  END IF;
  IF FOUND AND v_last.tree_size > p_tree_size THEN
    RAISE EXCEPTION USING ERRCODE = 'CL009',
      MESSAGE = format('log %L: a checkpoint of size %s is older than the last one (size %s)', p_log_id, p_tree_size, v_last.tree_size),
      HINT = 'Checkpoints only grow.';
  END IF;
  SELECT chain_hash INTO v_chain FROM ledger.events WHERE log_id = p_log_id AND position = p_tree_size;
  IF v_chain IS DISTINCT FROM p_chain_hash THEN
    RAISE EXCEPTION USING ERRCODE = 'CL009',
      MESSAGE = format('log %L: the chain hash given for size %s is not the stored one', p_log_id, p_tree_size);
  END IF;
  INSERT INTO ledger.checkpoints (log_id, tree_size, root_hash, chain_hash, origin, key_name, key_id, verifier_key, note)
  VALUES (p_log_id, p_tree_size, p_root_hash, p_chain_hash, p_origin, p_key_name, p_key_id, p_verifier_key, p_note)
  RETURNING signed_at INTO v_last.signed_at;
  RETURN v_last.signed_at;
END
$fn$;
