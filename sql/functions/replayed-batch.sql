-- ledger.replayed_batch: for ledger.append_events, the answer to a batch retried under an
-- idempotency key: the positions it was first appended at (idempotent_replay = true), or no row
-- when the key is new in the log. The same key with other events (p_digest is the sha256 of the
-- batch's events, one per line) raises CL002.
CREATE OR REPLACE FUNCTION ledger.replayed_batch(p_log_id text, p_idempotency_key text, p_digest bytea)
RETURNS TABLE ("position" bigint, event_id uuid, stream text, stream_version bigint, idempotent_replay boolean)
LANGUAGE plpgsql
AS $fn$
#variable_conflict use_column
DECLARE
  v_batch ledger.batches%ROWTYPE;
BEGIN
  SELECT * INTO v_batch FROM ledger.batches b
   WHERE b.log_id = p_log_id AND b.idempotency_key = p_idempotency_key;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  IF v_batch.request_digest <> p_digest THEN
    RAISE EXCEPTION USING ERRCODE = 'CL002',
      MESSAGE = format('idempotency key %L was already used in log %s for a different batch (positions %s to %s)',
                       p_idempotency_key, p_log_id, v_batch.first_position,
                       v_batch.first_position + v_batch.event_count - 1),
      HINT = 'Use a new idempotency key for a new batch; reuse a key only to retry the very same events.';
  END IF;
  RETURN QUERY
    SELECT e.position, e.event_id, e.stream, e.stream_version, true
      FROM ledger.events e
     WHERE e.log_id = p_log_id
       AND e.position BETWEEN v_batch.first_position AND v_batch.first_position + v_batch.event_count - 1
     ORDER BY e.position;
END
$fn$;
