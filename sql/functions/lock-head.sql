-- ledger.lock_head: the head of log p_log_id (its newest position and chain hash), locked until the
-- transaction ends; the log is created first when it does not exist (its id checked by
-- ledger.check_log_id). Appends to one log serialize here, so positions are gapless and commit in
-- position order. Both append functions call it after their checks, so a second append to the
-- log checks its batch while the first holds the head.
CREATE OR REPLACE FUNCTION ledger.lock_head(p_log_id text, OUT head_position bigint, OUT head_chain_hash bytea)
LANGUAGE plpgsql AS $fn$
BEGIN
  SELECT l.head_position, l.head_chain_hash INTO head_position, head_chain_hash
    FROM ledger.logs l WHERE l.log_id = p_log_id FOR UPDATE;
  IF NOT FOUND THEN
    PERFORM ledger.check_log_id(p_log_id);
    INSERT INTO ledger.logs (log_id) VALUES (p_log_id) ON CONFLICT DO NOTHING;
    SELECT l.head_position, l.head_chain_hash INTO head_position, head_chain_hash
      FROM ledger.logs l WHERE l.log_id = p_log_id FOR UPDATE;
  END IF;
END
$fn$;
