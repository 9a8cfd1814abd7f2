-- ledger.append_events_through: the append itself, for the database function an event came in by
-- (p_function): ledger.append_events (the application role's one way in), ledger.erase_subject or
-- ledger.apply_retention (the owner's operations). Each event must be one that function may store
-- (ledger.append_route_problem, generated from the catalogue: decision 0056); the ledger's own facts
-- come only through their operations. Nobody but the owner may call it: the application role calls
-- ledger.append_events, which passes its own name.
--
-- The parameters after p_function are ledger.append_events' (sql/functions/append-events.sql).
--
-- Errors (SQLSTATE): CL001 wrong expected version, CL002 idempotency key reused for a different
-- batch (or a per-event key already used), CL003 event id already stored, CL004 invalid event,
-- CL007 invalid log id, CL010 an event this function may not store (its type or actor). Nothing of
-- a refused batch is stored.
CREATE OR REPLACE FUNCTION ledger.append_events_through(
  p_function          text,
  p_log_id            text,
  p_events            text[],
  p_expected_versions text[],
  p_idempotency_key   text,
  p_event_keys        text[]
) RETURNS TABLE ("position" bigint, event_id uuid, stream text, stream_version bigint,
                 idempotent_replay boolean)
LANGUAGE plpgsql
SET search_path = ledger, pg_temp
-- The catalogue's checks are one large expression: compiling it with LLVM costs seconds, running it
-- costs milliseconds.
SET jit = off
-- Every statement inside, the per-type catalogue checks included, is planned once per session: a
-- custom plan for each batch would plan the checks again on every call (decision 0040).
SET plan_cache_mode = force_generic_plan
SET client_min_messages = warning
AS $fn$
#variable_conflict use_column
DECLARE
  v_count     integer := coalesce(cardinality(p_events), 0);
  v_head      bigint;
  v_chain     bytea;
  v_now       timestamptz;
  v_recorded  text;
  v_digest    bytea;
  v_bad       record;
  v_constraint text;
BEGIN
  PERFORM ledger.check_log_id(p_log_id);
  IF v_count = 0 THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004', MESSAGE = 'the batch is empty',
      HINT = 'Pass at least one event.';
  END IF;
  IF p_expected_versions IS NOT NULL AND cardinality(p_expected_versions) <> v_count THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004',
      MESSAGE = format('%s events but %s expected versions', v_count, cardinality(p_expected_versions)),
      HINT = 'Give one expected version per event (''any'' where there is no condition), or NULL.';
  END IF;
  IF array_position(p_events, NULL) IS NOT NULL THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004',
      MESSAGE = format('event %s of the batch is NULL', array_position(p_events, NULL)),
      HINT = 'Every element must be a JSON object.';
  END IF;
  IF p_event_keys IS NOT NULL THEN
    IF p_idempotency_key IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'CL004', MESSAGE = 'both a batch idempotency key and per-event keys were given',
        HINT = 'Give p_idempotency_key for the batch, or p_event_keys with one key per event, not both.';
    END IF;
    IF cardinality(p_event_keys) <> v_count OR array_position(p_event_keys, NULL) IS NOT NULL THEN
      RAISE EXCEPTION USING ERRCODE = 'CL004',
        MESSAGE = format('%s events but %s non-NULL per-event keys', v_count, cardinality(array_remove(p_event_keys, NULL))),
        HINT = 'Give one idempotency key per event, or NULL.';
    END IF;
    -- First without waiting for the head: a retry among them fails the call at once.
    PERFORM ledger.check_event_keys_unused(p_log_id, p_event_keys);
  END IF;

  -- Idempotency, first without waiting for the head: a retried batch already committed under
  -- this key is answered from the ledger at once.
  IF p_idempotency_key IS NOT NULL THEN
    v_digest := sha256(convert_to(array_to_string(p_events, E'\n'), 'UTF8'));
    RETURN QUERY SELECT * FROM ledger.replayed_batch(p_log_id, p_idempotency_key, v_digest);
    IF FOUND THEN
      RETURN;
    END IF;
  END IF;

  -- Stage the batch: parse each event once.
  CREATE TEMP TABLE IF NOT EXISTS append_staging (
    ord bigint, body text, doc jsonb, occurred_at timestamptz, expected text
  ) ON COMMIT DELETE ROWS;
  DELETE FROM pg_temp.append_staging;
  BEGIN
    INSERT INTO pg_temp.append_staging (ord, body, doc, occurred_at, expected)
    SELECT p.ord, p.body, p.doc, (p.doc->>'occurredAt')::timestamptz, p.expected
      FROM (SELECT u.ord, u.body, u.body::jsonb AS doc, coalesce(p_expected_versions[u.ord], 'any') AS expected
              FROM unnest(p_events) WITH ORDINALITY AS u(body, ord) OFFSET 0) p;
  EXCEPTION WHEN data_exception THEN
    SELECT f.ord, f.problem INTO v_bad FROM ledger.first_unparsable_event(p_events) f;
    IF NOT FOUND THEN
      RAISE;
    END IF;
    RAISE EXCEPTION USING ERRCODE = 'CL004',
      MESSAGE = format('event %s of the batch: %s', v_bad.ord, v_bad.problem),
      DETAIL = format('batch_index=%s', v_bad.ord),
      HINT = 'Each element must be one JSON object with occurredAt as an RFC 3339 timestamp.';
  END;

  -- The catalogue, enforced for every caller (decision 0035): the text as sent has no duplicate
  -- key, then the envelope, no birth date or exact age anywhere, the size, the expected version,
  -- the payload against the event catalogue, and a `derived` member equal to what the ledger
  -- computes. The functions in sql/generated/ are written from the Swift catalogue; each returns
  -- the event's first problem as '<field>: <what is wrong>'. One statement over the whole batch.
  -- The envelope check is a SQL function the planner inlines; the key screen and walk are PL/pgSQL
  -- functions that keep their plans; the payload and derived-facts checks run one function per
  -- event type the batch holds, so a call sets up only those types' expressions (decision 0040).
  -- The materialized steps keep each function's argument a plain column, so that no check is
  -- copied into another.
  WITH keys AS MATERIALIZED (
    SELECT k.ord, k.kind, k.problem
      FROM ledger.key_problems(ARRAY(SELECT CASE WHEN ledger.may_have_key_problem(st.body, st.doc) THEN st.body END
                                       FROM pg_temp.append_staging st ORDER BY st.ord)) k),
  objects AS MATERIALIZED (
    SELECT st.ord, CASE WHEN jsonb_typeof(st.doc) = 'object' THEN st.doc END AS doc FROM pg_temp.append_staging st),
  envelopes AS MATERIALIZED (
    SELECT o.ord, o.doc, e.problem FROM objects o LEFT JOIN LATERAL ledger.envelope_problem(o.doc) e ON true),
  payloads AS MATERIALIZED (
    SELECT p.ord, p.problem
      FROM ledger.payload_problems(ARRAY(SELECT CASE WHEN en.problem IS NULL THEN en.doc END
                                           FROM envelopes en ORDER BY en.ord)) p),
  -- Every event's first problem, materialized: planned under the LIMIT below, the join of the
  -- batch with its envelopes became a nested loop (the planner expects a problem in the first
  -- rows), quadratic in the batch size: 25 s for 10,000 events.
  problems AS MATERIALIZED (
    SELECT st.ord, CASE WHEN jsonb_typeof(st.doc) = 'object' THEN st.doc->>'type' END AS type, coalesce(
      (SELECT k.problem FROM keys k WHERE k.ord = st.ord AND k.kind = 'duplicate'),
      CASE WHEN jsonb_typeof(st.doc) <> 'object' THEN 'the event is not a JSON object' END,
      en.problem,
      (SELECT k.problem FROM keys k WHERE k.ord = st.ord AND k.kind = 'forbidden'),
      CASE WHEN octet_length(st.body) > 65536 THEN format('the event is %s bytes; the limit is 65536', octet_length(st.body)) END,
      CASE WHEN st.expected !~ '^(any|noStream|[0-9]{1,18})$'
        THEN format('expected version %L is not any, noStream or a stream version', st.expected) END,
      pa.problem,
      CASE WHEN st.doc ? 'derived' AND st.doc->'derived' IS DISTINCT FROM ledger.derived_facts(st.doc)::jsonb
        THEN coalesce('derived: must be ' || ledger.derived_facts(st.doc) || ', what the ledger computes from the payload',
                      'derived: ' || (st.doc->>'type') || ' derives no facts')
             || '; send the event without derived and the ledger adds it' END
    ) AS problem
    FROM pg_temp.append_staging st
    JOIN envelopes en ON en.ord = st.ord
    LEFT JOIN payloads pa ON pa.ord = st.ord)
  SELECT s.ord, s.type, s.problem INTO v_bad FROM problems s WHERE s.problem IS NOT NULL ORDER BY s.ord LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CL004',
      MESSAGE = format('event %s of the batch%s: %s', v_bad.ord, coalesce(' (' || v_bad.type || ')', ''), v_bad.problem),
      DETAIL = format('batch_index=%s', v_bad.ord),
      HINT = 'Fix that event and send the whole batch again; nothing of it was stored.';
  END IF;

  -- Who may append each type (decision 0056): the function the batch came in by must be one its
  -- type and actor may be stored through. The ledger's own facts (SubjectErased, RetentionApplied)
  -- only through their operations, never through ledger.append_events.
  SELECT st.ord, st.doc->>'type' AS type, r.problem INTO v_bad
    FROM pg_temp.append_staging st, LATERAL (SELECT ledger.append_route_problem(st.doc, p_function) AS problem) r
   WHERE r.problem IS NOT NULL ORDER BY st.ord LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION USING ERRCODE = 'CL010',
      MESSAGE = format('event %s of the batch (%s): %s', v_bad.ord, v_bad.type, v_bad.problem),
      DETAIL = format('batch_index=%s', v_bad.ord),
      HINT = 'Nothing of the batch was stored; the table of who may append each type is in docs/events.md (decision 0056).';
  END IF;

  -- The derived facts of an event sent without them (from psql): added as the last member of the
  -- text as sent, in RFC 8785 form. The Swift client's events carry them already.
  UPDATE pg_temp.append_staging st
     SET body = left(rtrim(st.body, E' \t\r\n'), -1) || ',"derived":' || d.facts || '}'
    FROM (SELECT x.ord, ledger.derived_facts(x.doc) AS facts
            FROM pg_temp.append_staging x WHERE NOT x.doc ? 'derived') d
   WHERE d.ord = st.ord AND d.facts IS NOT NULL;
  IF FOUND THEN
    SELECT st.ord, octet_length(st.body) AS size INTO v_bad FROM pg_temp.append_staging st
     WHERE octet_length(st.body) > 65536 ORDER BY st.ord LIMIT 1;
    IF FOUND THEN
      RAISE EXCEPTION USING ERRCODE = 'CL004',
        MESSAGE = format('event %s of the batch: the event is %s bytes with its derived facts; the limit is 65536', v_bad.ord, v_bad.size),
        DETAIL = format('batch_index=%s', v_bad.ord),
        HINT = 'Events record facts, not documents: keep large content out of the payload.';
    END IF;
  END IF;

  -- Lock the log's head (ledger.lock_head). Everything above (parsing and the catalogue's checks)
  -- ran before, so a second append to the log checks its batch while the first one holds the head.
  SELECT h.head_position, h.head_chain_hash INTO v_head, v_chain FROM ledger.lock_head(p_log_id) h;

  -- Idempotency again, under the head: the same key may have committed while this call waited.
  IF p_idempotency_key IS NOT NULL THEN
    RETURN QUERY SELECT * FROM ledger.replayed_batch(p_log_id, p_idempotency_key, v_digest);
    IF FOUND THEN
      RETURN;
    END IF;
  ELSIF p_event_keys IS NOT NULL THEN
    PERFORM ledger.check_event_keys_unused(p_log_id, p_event_keys);
  END IF;

  -- Stream versions, and the expected-version conditions.
  v_now := clock_timestamp();
  v_recorded := ledger.record_time(v_now);
  CREATE TEMP TABLE IF NOT EXISTS append_numbered (
    ord bigint, pos bigint, stream text, stream_version bigint, expected text
  ) ON COMMIT DELETE ROWS;
  DELETE FROM pg_temp.append_numbered;
  INSERT INTO pg_temp.append_numbered
  SELECT st.ord, v_head + st.ord, st.doc->>'stream',
         cur.version + row_number() OVER (PARTITION BY st.doc->>'stream' ORDER BY st.ord),
         st.expected
    FROM pg_temp.append_staging st
    JOIN ledger.stream_versions(p_log_id, ARRAY(SELECT DISTINCT x.doc->>'stream' FROM pg_temp.append_staging x)) cur
      ON cur.stream = st.doc->>'stream';

  SELECT n.ord, n.stream, n.stream_version, n.expected INTO v_bad
    FROM pg_temp.append_numbered n
   WHERE n.expected <> 'any'
     AND n.stream_version - 1 <> CASE WHEN n.expected = 'noStream' THEN 0 ELSE n.expected::bigint END
   ORDER BY n.ord LIMIT 1;
  IF FOUND THEN
    PERFORM ledger.raise_wrong_expected_version(v_bad.ord, v_bad.stream, v_bad.expected, v_bad.stream_version);
  END IF;

  -- Build each record, hash it, chain it, store it. The statement trigger
  -- ledger.check_appended_events checks every hash again and moves the head.
  -- Event ids are unique in a log: the unique index events_event_id enforces it, within the
  -- batch and against what is stored. When it refuses the insert, say which event it was.
  BEGIN
    INSERT INTO ledger.events (log_id, position, event_id, stream, stream_version, type, schema_version,
                               occurred_at, recorded_at, subject, actor_kind, actor_id, correlation_id,
                               causation_id, idempotency_key, record, leaf_hash, chain_hash)
    SELECT p_log_id, r.pos, r.event_id, r.stream, r.stream_version, r.type, r.schema_version,
           r.occurred_at, v_now, r.subject, r.actor_kind, r.actor_id, r.correlation_id,
           r.causation_id, coalesce(p_idempotency_key, p_event_keys[r.pos - v_head]), r.record, r.leaf_hash,
           ledger.chain_hashes(v_chain, r.leaf_hash) OVER (ORDER BY r.pos ROWS UNBOUNDED PRECEDING)
      FROM (
        SELECT x.*, sha256('\x00'::bytea || x.record) AS leaf_hash
          FROM (
            SELECT n.pos, n.stream, n.stream_version,
                   (st.doc->>'eventId')::uuid AS event_id,
                   st.doc->>'type' AS type,
                   (st.doc->>'schemaVersion')::integer AS schema_version,
                   st.occurred_at,
                   st.doc->>'subject' AS subject,
                   st.doc->'actor'->>'kind' AS actor_kind,
                   st.doc->'actor'->>'id' AS actor_id,
                   st.doc->>'correlationId' AS correlation_id,
                   st.doc->>'causationId' AS causation_id,
                   convert_to('{"event":' || st.body || ',"log":"' || p_log_id || '","position":' || n.pos
                              || ',"recordedAt":"' || v_recorded || '","streamVersion":' || n.stream_version
                              || '}', 'UTF8') AS record
              FROM pg_temp.append_staging st JOIN pg_temp.append_numbered n ON n.ord = st.ord
          ) x
      ) r
     ORDER BY r.pos;
  EXCEPTION WHEN unique_violation THEN
    GET STACKED DIAGNOSTICS v_constraint = CONSTRAINT_NAME;
    IF v_constraint IS DISTINCT FROM 'events_event_id' THEN
      RAISE;
    END IF;
    PERFORM ledger.raise_duplicate_event_id(p_log_id, ARRAY(SELECT (st.doc->>'eventId')::uuid
                                                              FROM pg_temp.append_staging st ORDER BY st.ord));
    RAISE;
  END;

  PERFORM ledger.record_batches(p_log_id, v_head + 1, p_events, p_idempotency_key, v_digest, p_event_keys, v_now);

  RETURN QUERY
    SELECT n.pos, (st.doc->>'eventId')::uuid, n.stream, n.stream_version, false
      FROM pg_temp.append_staging st JOIN pg_temp.append_numbered n ON n.ord = st.ord
     ORDER BY n.pos;
END
$fn$;
