-- ledger.check_event_keys_unused: for ledger.append_events called with per-event idempotency
-- keys, raises CL002 for the first event whose key was already used in the log (each such event
-- must be sent alone with its key, which answers it with its original position), or CL004 when
-- two events of the call carry the same key.
CREATE OR REPLACE FUNCTION ledger.check_event_keys_unused(p_log_id text, p_event_keys text[]) RETURNS void
LANGUAGE plpgsql
AS $fn$
DECLARE
  v_used record;
BEGIN
  SELECT k.ord, k.key, b.first_position INTO v_used
    FROM unnest(p_event_keys) WITH ORDINALITY AS k(key, ord)
    JOIN ledger.batches b ON b.log_id = p_log_id AND b.idempotency_key = k.key
   ORDER BY k.ord
   LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CL002',
      MESSAGE = format('event %s of the batch: idempotency key %L was already used in log %s (position %s)',
                       v_used.ord, v_used.key, p_log_id, v_used.first_position),
      DETAIL = format('batch_index=%s', v_used.ord),
      HINT = 'Send that event alone with its key: a retry is answered with its original position.';
  END IF;
  IF (SELECT count(DISTINCT k) FROM unnest(p_event_keys) AS k) < cardinality(p_event_keys) THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004', MESSAGE = 'two events of the batch carry the same idempotency key',
      HINT = 'Give every event its own key, or send the events under one batch key.';
  END IF;
END
$fn$;
