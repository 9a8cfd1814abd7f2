-- ledger.record_cosignatures: stores witnesses' cosignatures of one checkpoint, all or none (one
-- statement). The caller (CheckpointStore.addCosignatures) has checked each signature against the
-- checkpoint's note and the witness's key; this refuses a checkpoint that was never signed (CL009)
-- and keeps the first cosignature of each witness key: a repeat is not stored again. Returns the
-- names of the witnesses whose cosignature is new.
CREATE OR REPLACE FUNCTION ledger.record_cosignatures(
  p_log_id text, p_tree_size bigint, p_witness_names text[], p_key_ids bigint[], p_witness_keys text[],
  p_cosigned_at bigint[], p_lines text[]
) RETURNS SETOF text
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ledger, pg_temp
AS $fn$
BEGIN
  PERFORM 1 FROM ledger.checkpoints WHERE log_id = p_log_id AND tree_size = p_tree_size;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CL009',
      MESSAGE = format('log %L has no signed checkpoint of size %s to add cosignatures to', p_log_id, p_tree_size);
  END IF;
  RETURN QUERY
    INSERT INTO ledger.checkpoint_cosignatures AS c (log_id, tree_size, witness_name, key_id, witness_key, cosigned_at, line)
    SELECT p_log_id, p_tree_size, w.name, w.key_id, w.witness_key, w.cosigned_at, w.line
      FROM unnest(p_witness_names, p_key_ids, p_witness_keys, p_cosigned_at, p_lines) AS w (name, key_id, witness_key, cosigned_at, line)
    ON CONFLICT (log_id, tree_size, witness_name, key_id) DO NOTHING
    RETURNING c.witness_name;
END
$fn$;
