-- ledger.first_column_problem: the first event of a log whose columns disagree with its record
-- (ledger.event_column_problem), or whose record PostgreSQL cannot read as JSON; no row when all
-- agree. `consent-ledger verify` runs it beside the hash chain check (LogVerifier), so the columns
-- that projections, replay and reports read are checked against the bytes that were hashed.
-- One pass over the log, each record parsed once; the slow search for an unreadable record (a
-- subtransaction per event) runs only when the fast pass failed on one.
CREATE OR REPLACE FUNCTION ledger.first_column_problem(p_log_id text)
RETURNS TABLE ("position" bigint, problem text)
LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
DECLARE
  v_row record;
  v_doc jsonb;
BEGIN
  BEGIN
    RETURN QUERY
      SELECT e.position, ledger.event_column_problem(e.log_id, e.position, e.event_id, e.stream,
               e.stream_version, e.type, e.schema_version, e.occurred_at, e.recorded_at, e.subject,
               e.actor_kind, e.actor_id, e.correlation_id, e.causation_id, d.doc) AS problem
        FROM ledger.events e
       CROSS JOIN LATERAL (SELECT convert_from(e.record, 'UTF8')::jsonb AS doc OFFSET 0) d
       WHERE e.log_id = p_log_id
         AND ledger.event_column_problem(e.log_id, e.position, e.event_id, e.stream,
               e.stream_version, e.type, e.schema_version, e.occurred_at, e.recorded_at, e.subject,
               e.actor_kind, e.actor_id, e.correlation_id, e.causation_id, d.doc) IS NOT NULL
       ORDER BY e.position
       LIMIT 1;
    RETURN;
  EXCEPTION WHEN data_exception THEN
    NULL;  -- a record PostgreSQL cannot read: find the first one below
  END;
  FOR v_row IN SELECT e.position, e.record FROM ledger.events e WHERE e.log_id = p_log_id ORDER BY e.position LOOP
    BEGIN
      v_doc := convert_from(v_row.record, 'UTF8')::jsonb;
      PERFORM (v_doc->'event'->>'occurredAt')::timestamptz;
    EXCEPTION WHEN data_exception THEN
      "position" := v_row.position;
      problem := 'the record is not a JSON object PostgreSQL can read, so its columns cannot be compared with it (' || SQLERRM || ')';
      RETURN NEXT;
      RETURN;
    END;
  END LOOP;
END
$fn$;
