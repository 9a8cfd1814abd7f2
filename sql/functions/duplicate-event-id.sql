-- ledger.raise_duplicate_event_id: after the unique index events_event_id refused a batch's
-- insert, the CL003 error naming the first event of the batch (p_event_ids, in batch order) whose
-- id is already stored in the log or appears twice in the batch. Returns without raising when
-- there is none (the caller then raises the original error). The owner's bulk load (decision 0042)
-- calls it before it copies, since a refused COPY leaves nothing to ask.
--
-- One probe of events_event_id per id: the first entry at or after (log, id) is the event when it
-- is stored. Written as "log_id = … AND event_id = …", a log the statistics have not seen yet looks
-- empty, and the planner may read the whole log through another index instead (150 ms for a
-- 30,000-event log in the bulk load, growing with it). Only an index that starts with
-- (log_id, event_id) serves the row comparison, as in ledger.stream_versions.
CREATE OR REPLACE FUNCTION ledger.raise_duplicate_event_id(p_log_id text, p_event_ids uuid[])
RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  v_bad record;
BEGIN
  SELECT d.ord, d.event_id, d.stored_at INTO v_bad FROM (
    SELECT u.ord, u.event_id,
           (SELECT CASE WHEN e.log_id = p_log_id AND e.event_id = u.event_id THEN e.position END
              FROM ledger.events e WHERE (e.log_id, e.event_id) >= (p_log_id, u.event_id)
             ORDER BY e.log_id, e.event_id LIMIT 1) AS stored_at,
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
