-- ledger.extend_merkle_tree: builds the log's Merkle tree up to its head (or by at most
-- p_max_leaves leaves, for a caller that wants progress and short transactions), and returns the
-- tree size afterwards. Set-based: one INSERT per level, each node hashed from its two children
-- (level 1 from the events' leaf hashes). Serialised per log by the ledger.merkle_trees row.
--
-- From psql:   SELECT ledger.extend_merkle_tree('acme');
CREATE OR REPLACE FUNCTION ledger.extend_merkle_tree(p_log_id text, p_max_leaves bigint DEFAULT NULL)
RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ledger, pg_temp
AS $fn$
DECLARE
  v_head  bigint;
  v_from  bigint;
  v_to    bigint;
  v_level integer := 1;
  v_lo    bigint;
  v_hi    bigint;
  v_rows  bigint;
BEGIN
  SELECT head_position INTO v_head FROM ledger.logs WHERE log_id = p_log_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CL008', MESSAGE = format('there is no log %L', p_log_id),
      HINT = 'consent-ledger logs lists the logs; a log is created by its first append.';
  END IF;
  IF p_max_leaves IS NOT NULL AND p_max_leaves < 1 THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004', MESSAGE = format('p_max_leaves must be at least 1, not %s', p_max_leaves);
  END IF;
  INSERT INTO ledger.merkle_trees (log_id) VALUES (p_log_id) ON CONFLICT (log_id) DO NOTHING;
  SELECT size INTO v_from FROM ledger.merkle_trees WHERE log_id = p_log_id FOR UPDATE;
  v_to := CASE WHEN p_max_leaves IS NULL THEN v_head ELSE least(v_head, v_from + p_max_leaves) END;
  IF v_to <= v_from THEN
    RETURN v_from;
  END IF;
  -- At each level the new nodes are [v_from >> level, v_to >> level): those that end after the
  -- old size and no later than the new one. None at one level means none above it.
  LOOP
    v_lo := v_from >> v_level;
    v_hi := v_to >> v_level;
    EXIT WHEN v_hi <= v_lo;
    IF v_level = 1 THEN
      INSERT INTO ledger.merkle_nodes (log_id, level, index, hash)
      SELECT p_log_id, 1, (e.position - 1) / 2,
             sha256('\x01'::bytea || string_agg(e.leaf_hash, ''::bytea ORDER BY e.position))
        FROM ledger.events e
       WHERE e.log_id = p_log_id AND e.position > 2 * v_lo AND e.position <= 2 * v_hi
       GROUP BY (e.position - 1) / 2
      HAVING count(*) = 2;
    ELSE
      INSERT INTO ledger.merkle_nodes (log_id, level, index, hash)
      SELECT p_log_id, v_level, n.index / 2,
             sha256('\x01'::bytea || string_agg(n.hash, ''::bytea ORDER BY n.index))
        FROM ledger.merkle_nodes n
       WHERE n.log_id = p_log_id AND n.level = v_level - 1 AND n.index >= 2 * v_lo AND n.index < 2 * v_hi
       GROUP BY n.index / 2
      HAVING count(*) = 2;
    END IF;
    GET DIAGNOSTICS v_rows = ROW_COUNT;
    IF v_rows <> v_hi - v_lo THEN
      RAISE EXCEPTION USING ERRCODE = 'CL006',
        MESSAGE = format('the Merkle tree of log %L could not be extended: level %s should gain %s nodes, %s were computed',
                         p_log_id, v_level, v_hi - v_lo, v_rows),
        HINT = 'An event or a lower node is missing; run consent-ledger verify --log ' || p_log_id || '.';
    END IF;
    v_level := v_level + 1;
  END LOOP;
  UPDATE ledger.merkle_trees SET size = v_to, updated_at = clock_timestamp() WHERE log_id = p_log_id;
  RETURN v_to;
END
$fn$;
