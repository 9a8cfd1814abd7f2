-- ledger.raise_duplicate_event_id: after the unique index events_event_id refused a batch's
-- insert, the CL003 error naming the first event of the batch (p_event_ids, in batch order) whose
-- id is already stored in the log or appears twice in the batch. Returns without raising when
-- there is none (the caller then raises the original error).
CREATE OR REPLACE FUNCTION ledger.raise_duplicate_event_id(p_log_id text, p_event_ids uuid[])
RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  v_bad record;
BEGIN
  SELECT d.ord, d.event_id, d.stored_at INTO v_bad FROM (
    SELECT u.ord, u.event_id,
           (SELECT e.position FROM ledger.events e WHERE e.log_id = p_log_id AND e.event_id = u.event_id) AS stored_at,
           count(*) OVER (PARTITION BY u.event_id) AS copies
      FROM unnest(p_event_ids) WITH ORDINALITY AS u(event_id, ord)
  ) d WHERE d.stored_at IS NOT NULL OR d.copies > 1 ORDER BY d.ord LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CL003',
      MESSAGE = CASE WHEN v_bad.stored_at IS NOT NULL
        THEN format('event %s of the batch: eventId %s is already stored in log %s at position %s',
                    v_bad.ord, v_bad.event_id, p_log_id, v_bad.stored_at)
        ELSE format('event %s of the batch: eventId %s appears more than once in the batch', v_bad.ord, v_bad.event_id)
      END,
      DETAIL = format('batch_index=%s', v_bad.ord),
      HINT = 'Give every event a new UUID; to retry a batch safely, send it again with the same idempotency key.';
  END IF;
END
$fn$;
