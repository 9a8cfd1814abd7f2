-- ledger.event_column_problem: the rule that an event's columns are copies of its record. Every
-- column that ledger.append_events fills from the record is compared with the record (parsed once
-- by the caller as p_record jsonb); returns NULL when all agree, else the first that does not, as
-- 'column <name> is <stored> but the record says <in record>'. idempotency_key is the only
-- column not in the record (it is the batch's, see ledger.batches), and the hashes are checked
-- by hashing.
--
-- One rule, two callers: the insert trigger ledger.check_appended_events (nothing that disagrees
-- gets in) and ledger.column_problems, to which `consent-ledger verify` hands every event whose
-- columns it cannot compare itself (nothing that was changed behind the triggers' back goes
-- unnoticed; decision 0043). A plain SQL expression, so the planner
-- inlines it: no call per row. occurred_at is the timestamptz parse of the event's occurredAt
-- (which may carry an offset); recorded_at is written in the record as UTC with microseconds.
CREATE OR REPLACE FUNCTION ledger.event_column_problem(
  p_log_id text, p_position bigint, p_event_id uuid, p_stream text, p_stream_version bigint,
  p_type text, p_schema_version integer, p_occurred_at timestamptz, p_recorded_at timestamptz,
  p_subject text, p_actor_kind text, p_actor_id text, p_correlation_id text, p_causation_id text,
  p_record jsonb
) RETURNS text
LANGUAGE sql STABLE PARALLEL SAFE AS $fn$
  SELECT CASE
    WHEN p_log_id IS DISTINCT FROM p_record->>'log'
      THEN format('column log_id is %s but the record says %s', quote_nullable(p_log_id), quote_nullable(p_record->>'log'))
    WHEN p_position::text IS DISTINCT FROM p_record->>'position'
      THEN format('column position is %s but the record says %s', p_position, quote_nullable(p_record->>'position'))
    WHEN p_stream_version::text IS DISTINCT FROM p_record->>'streamVersion'
      THEN format('column stream_version is %s but the record says %s', p_stream_version, quote_nullable(p_record->>'streamVersion'))
    WHEN to_char(p_recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') IS DISTINCT FROM p_record->>'recordedAt'
      THEN format('column recorded_at is %s but the record says %s',
                  to_char(p_recorded_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), quote_nullable(p_record->>'recordedAt'))
    WHEN p_event_id::text IS DISTINCT FROM p_record #>> '{event,eventId}'
      THEN format('column event_id is %s but the record says %s', p_event_id, quote_nullable(p_record #>> '{event,eventId}'))
    WHEN p_stream IS DISTINCT FROM p_record #>> '{event,stream}'
      THEN format('column stream is %s but the record says %s', quote_nullable(p_stream), quote_nullable(p_record #>> '{event,stream}'))
    WHEN p_type IS DISTINCT FROM p_record #>> '{event,type}'
      THEN format('column type is %s but the record says %s', quote_nullable(p_type), quote_nullable(p_record #>> '{event,type}'))
    WHEN p_schema_version::text IS DISTINCT FROM p_record #>> '{event,schemaVersion}'
      THEN format('column schema_version is %s but the record says %s', p_schema_version, quote_nullable(p_record #>> '{event,schemaVersion}'))
    WHEN p_occurred_at IS DISTINCT FROM (p_record #>> '{event,occurredAt}')::timestamptz
      THEN format('column occurred_at is %s but the record says %s',
                  to_char(p_occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'), quote_nullable(p_record #>> '{event,occurredAt}'))
    WHEN p_subject IS DISTINCT FROM p_record #>> '{event,subject}'
      THEN format('column subject is %s but the record says %s', quote_nullable(p_subject), quote_nullable(p_record #>> '{event,subject}'))
    WHEN p_actor_kind IS DISTINCT FROM p_record #>> '{event,actor,kind}'
      THEN format('column actor_kind is %s but the record says %s', quote_nullable(p_actor_kind), quote_nullable(p_record #>> '{event,actor,kind}'))
    WHEN p_actor_id IS DISTINCT FROM p_record #>> '{event,actor,id}'
      THEN format('column actor_id is %s but the record says %s', quote_nullable(p_actor_id), quote_nullable(p_record #>> '{event,actor,id}'))
    WHEN p_correlation_id IS DISTINCT FROM p_record #>> '{event,correlationId}'
      THEN format('column correlation_id is %s but the record says %s', quote_nullable(p_correlation_id), quote_nullable(p_record #>> '{event,correlationId}'))
    WHEN p_causation_id IS DISTINCT FROM p_record #>> '{event,causationId}'
      THEN format('column causation_id is %s but the record says %s', quote_nullable(p_causation_id), quote_nullable(p_record #>> '{event,causationId}'))
  END
$fn$;
