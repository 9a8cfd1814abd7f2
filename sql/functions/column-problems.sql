-- ledger.column_problems: the first of the given events of a log whose columns disagree with its
-- record (ledger.event_column_problem), or whose record PostgreSQL cannot read as JSON; no row
-- when all agree. `consent-ledger verify` compares most events' columns with their records
-- itself, from the record's bytes (ColumnAgreement, decision 0043), and hands here every event it
-- is not sure of, so the rule and its messages stay the database's. Each event is read in a
-- subtransaction of its own, so an unreadable record is reported at its position rather than
-- failing the query.
CREATE OR REPLACE FUNCTION ledger.column_problems(p_log_id text, p_positions bigint[])
RETURNS TABLE ("position" bigint, problem text)
LANGUAGE plpgsql STABLE AS $fn$
#variable_conflict use_column
DECLARE
  v_row record;
  v_problem text;
BEGIN
  FOR v_row IN
    SELECT e.* FROM ledger.events e
     WHERE e.log_id = p_log_id AND e.position = ANY (p_positions)
     ORDER BY e.position
  LOOP
    BEGIN
      v_problem := ledger.event_column_problem(v_row.log_id, v_row.position, v_row.event_id, v_row.stream,
        v_row.stream_version, v_row.type, v_row.schema_version, v_row.occurred_at, v_row.recorded_at, v_row.subject,
        v_row.actor_kind, v_row.actor_id, v_row.correlation_id, v_row.causation_id,
        convert_from(v_row.record, 'UTF8')::jsonb);
    EXCEPTION WHEN data_exception THEN
      v_problem := 'the record is not a JSON object PostgreSQL can read, so its columns cannot be compared with it (' || SQLERRM || ')';
    END;
    IF v_problem IS NOT NULL THEN
      "position" := v_row.position;
      problem := v_problem;
      RETURN NEXT;
      RETURN;
    END IF;
  END LOOP;
END
$fn$;
