-- ledger.record_verification: records the result of one verification of a log, which the caller
-- ran (`verify` and the console's "Verify now", both as the application role). The record is that
-- writer's statement, not a proof: a report re-hashes what it rests on itself (decision 0057).
CREATE OR REPLACE FUNCTION ledger.record_verification(
  p_log_id text, p_scope text, p_passed boolean, p_events_checked bigint, p_head_position bigint, p_summary text, p_by text
) RETURNS timestamptz
LANGUAGE sql SECURITY DEFINER
SET search_path = ledger, pg_temp
AS $fn$
  INSERT INTO ledger.verifications (log_id, scope, passed, events_checked, head_position, summary, verified_by)
  VALUES (p_log_id, p_scope, p_passed, p_events_checked, p_head_position, left(p_summary, 2000), left(p_by, 200))
  RETURNING verified_at;
$fn$;
