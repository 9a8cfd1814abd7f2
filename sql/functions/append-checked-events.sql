-- ledger.append_checked_events: the ledger's own writer's way in (decision 0072). Stores a batch
-- that serve or the CLI has already parsed and checked against the event catalogue (the Swift
-- catalogue the SQL checks of ledger.append_events are generated from), given as the canonical
-- event texts (with their derived facts) and, in the same order, the columns read from them.
-- Only consent_ledger_writer (and the owner) may call it; every other caller appends through
-- ledger.append_events, which checks everything itself.
--
-- What it does not check again is the catalogue (envelope, payload, forbidden fields, derived
-- facts). What every writer meets holds here too: the log id; who may append each type
-- (ledger.append_route_problem, CL010); expected versions (CL001); idempotency under a batch key
-- or per-event keys (CL002), with p_digest the sha256 of the events one per line; event ids unique
-- in the log (CL003); and the insert trigger ledger.check_appended_events, which checks every
-- position and hash and every column against its record (CL006), so a column array that does not
-- say what its event says is refused.
--
-- One statement numbers, builds, hashes, chains and inserts the batch; no temporary table.
CREATE OR REPLACE FUNCTION ledger.append_checked_events(
  p_log_id           text,
  p_events           text[],
  p_event_ids        uuid[],
  p_streams          text[],
  p_types            text[],
  p_schema_versions  integer[],
  p_occurred_at      timestamptz[],
  p_subjects         text[],
  p_actor_kinds      text[],
  p_actor_ids        text[],
  p_correlation_ids  text[],
  p_causation_ids    text[],
  p_expected_versions text[],
  p_idempotency_key  text,
  p_digest           bytea,
  p_event_keys       text[]
) RETURNS TABLE ("position" bigint, stream_version bigint, idempotent_replay boolean)
LANGUAGE plpgsql SECURITY DEFINER
SET search_path = ledger, pg_temp
SET plan_cache_mode = force_generic_plan
AS $fn$
#variable_conflict use_column
DECLARE
  v_count    integer := coalesce(cardinality(p_events), 0);
  v_head     bigint;
  v_chain    bytea;
  v_now      timestamptz;
  v_recorded text;
  v_bad      record;
  v_constraint text;
BEGIN
  IF v_count = 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004', MESSAGE = 'the batch is empty', HINT = 'Pass at least one event.';
  END IF;
  -- Plain expressions, which PL/pgSQL evaluates without setting up a query.
  IF cardinality(p_event_ids) IS DISTINCT FROM v_count OR cardinality(p_streams) IS DISTINCT FROM v_count
     OR cardinality(p_types) IS DISTINCT FROM v_count OR cardinality(p_schema_versions) IS DISTINCT FROM v_count
     OR cardinality(p_occurred_at) IS DISTINCT FROM v_count OR cardinality(p_subjects) IS DISTINCT FROM v_count
     OR cardinality(p_actor_kinds) IS DISTINCT FROM v_count OR cardinality(p_actor_ids) IS DISTINCT FROM v_count
     OR cardinality(p_correlation_ids) IS DISTINCT FROM v_count OR cardinality(p_causation_ids) IS DISTINCT FROM v_count
     OR cardinality(p_expected_versions) IS DISTINCT FROM v_count
     OR (p_event_keys IS NOT NULL AND (p_idempotency_key IS NOT NULL OR cardinality(p_event_keys) <> v_count))
     OR (p_idempotency_key IS NOT NULL AND p_digest IS NULL) THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004', MESSAGE = 'the arrays of a checked batch differ in length, or its keys are inconsistent',
      HINT = 'Give every array one entry per event, and either a batch key with its digest, or one key per event, or neither.';
  END IF;

  -- Who may append each type (decision 0056), as for ledger.append_events.
  SELECT r.ord, r.type, r.problem INTO v_bad
    FROM ledger.append_events_route_refusals(p_types, p_actor_kinds) r ORDER BY r.ord LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CL010',
      MESSAGE = format('event %s of the batch (%s): %s', v_bad.ord, v_bad.type, v_bad.problem),
      DETAIL = format('batch_index=%s', v_bad.ord),
      HINT = 'Nothing of the batch was stored; the table of who may append each type is in docs/events.md (decision 0056).';
  END IF;

  IF p_idempotency_key IS NOT NULL THEN
    RETURN QUERY SELECT r.position, r.stream_version, true FROM ledger.replayed_batch(p_log_id, p_idempotency_key, p_digest) r;
    IF FOUND THEN
      RETURN;
    END IF;
  ELSIF p_event_keys IS NOT NULL THEN
    PERFORM ledger.check_event_keys_unused(p_log_id, p_event_keys);
  END IF;

  -- The log's head, locked (ledger.lock_head, as in ledger.append_events).
  SELECT h.head_position, h.head_chain_hash INTO v_head, v_chain FROM ledger.lock_head(p_log_id) h;
  -- Idempotency again, under the head: the same key may have committed while this call waited.
  IF p_idempotency_key IS NOT NULL THEN
    RETURN QUERY SELECT r.position, r.stream_version, true FROM ledger.replayed_batch(p_log_id, p_idempotency_key, p_digest) r;
    IF FOUND THEN
      RETURN;
    END IF;
  ELSIF p_event_keys IS NOT NULL THEN
    PERFORM ledger.check_event_keys_unused(p_log_id, p_event_keys);
  END IF;

  -- Expected versions, only when the batch has a condition (most have none).
  IF NOT ('any' = ALL (p_expected_versions)) THEN
    SELECT n.ord, n.stream, n.stream_version, n.expected INTO v_bad
      FROM ledger.checked_batch_versions(p_log_id, p_streams, p_expected_versions) n
     WHERE n.expected <> 'any'
       AND (n.expected !~ '^(noStream|[0-9]{1,18})$'
            OR n.stream_version - 1 <> CASE WHEN n.expected = 'noStream' THEN 0 ELSE n.expected::bigint END)
     ORDER BY n.ord LIMIT 1;
    IF FOUND THEN
      IF v_bad.expected !~ '^(noStream|[0-9]{1,18})$' THEN
        RAISE EXCEPTION USING ERRCODE = 'CL004',
          MESSAGE = format('event %s of the batch: expected version %L is not any, noStream or a stream version', v_bad.ord, v_bad.expected);
      END IF;
      PERFORM ledger.raise_wrong_expected_version(v_bad.ord, v_bad.stream, v_bad.expected, v_bad.stream_version);
    END IF;
  END IF;

  -- Number, build each record, hash it, chain it, store it; the statement trigger
  -- ledger.check_appended_events checks every hash and column again and moves the head.
  v_now := clock_timestamp();
  v_recorded := ledger.record_time(v_now);
  BEGIN
    RETURN QUERY
    WITH ins AS (
      INSERT INTO ledger.events (log_id, position, event_id, stream, stream_version, type, schema_version,
                                 occurred_at, recorded_at, subject, actor_kind, actor_id, correlation_id,
                                 causation_id, idempotency_key, record, leaf_hash, chain_hash)
      SELECT p_log_id, r.pos, p_event_ids[r.ord], r.stream, r.stream_version, p_types[r.ord], p_schema_versions[r.ord],
             p_occurred_at[r.ord], v_now, p_subjects[r.ord], p_actor_kinds[r.ord], p_actor_ids[r.ord],
             p_correlation_ids[r.ord], p_causation_ids[r.ord], coalesce(p_idempotency_key, p_event_keys[r.ord]),
             r.record, r.leaf, ledger.chain_hashes(v_chain, r.leaf) OVER (ORDER BY r.pos ROWS UNBOUNDED PRECEDING)
        FROM (SELECT x.*, sha256('\x00'::bytea || x.record) AS leaf
                FROM (SELECT n.ord, v_head + n.ord AS pos, n.stream, n.stream_version,
                             convert_to('{"event":' || p_events[n.ord] || ',"log":"' || p_log_id || '","position":' || (v_head + n.ord)
                                        || ',"recordedAt":"' || v_recorded || '","streamVersion":' || n.stream_version || '}', 'UTF8') AS record
                        FROM ledger.checked_batch_versions(p_log_id, p_streams, p_expected_versions) n) x) r
       ORDER BY r.pos
      RETURNING position, stream_version)
    SELECT i.position, i.stream_version, false FROM ins i ORDER BY i.position;
  EXCEPTION WHEN unique_violation THEN
    GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
    IF v_constraint IS DISTINCT FROM 'events_event_id' THEN
      RAISE;
    END IF;
    PERFORM ledger.raise_duplicate_event_id(p_log_id, p_event_ids);
    RAISE;
  END;

  IF p_idempotency_key IS NOT NULL OR p_event_keys IS NOT NULL THEN
    PERFORM ledger.record_batches(p_log_id, v_head + 1, p_events, p_idempotency_key, p_digest, p_event_keys, v_now);
  END IF;
END
$fn$;
