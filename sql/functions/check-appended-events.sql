-- Trigger function (AFTER INSERT ... FOR EACH STATEMENT on ledger.events): whoever inserted the
-- rows (the append function, the owner through psql, COPY), each one must
--   * belong to an existing log (checked here once per statement, instead of a foreign key);
--   * follow its predecessor: position = previous position + 1 (the log's head for the first);
--   * have leaf_hash  = sha256(0x00 || record);
--   * have chain_hash = sha256(previous chain_hash || leaf_hash);
--   * carry in its columns what its record says (ledger.event_column_problem): log, position,
--     stream version, recordedAt, event id, stream, type, schema version, occurredAt, subject,
--     actor and correlation/causation ids, so a record copied from another event, or a column
--     made to say something its record does not, is refused.
-- A row that fails aborts the whole statement. Then the log's head moves to the newest row (the
-- head's own trigger, ledger.check_head_move, accepts only that), and the rows are counted by day
-- (ledger.event_days).
CREATE OR REPLACE FUNCTION ledger.check_appended_events() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  bad record;
  v_row record;
  v_doc jsonb;
  v_newest record;
BEGIN
  -- Serialize with appends: lock the head of every log touched, in a fixed order.
  PERFORM 1 FROM ledger.logs
   WHERE log_id IN (SELECT DISTINCT a.log_id FROM appended a)
   ORDER BY log_id
   FOR UPDATE;

  BEGIN
    SELECT c.log_id, c.position, c.problem INTO bad
    FROM (
      SELECT o.log_id, o.position,
        CASE
          WHEN o.head_position IS NULL THEN
            format('log %s does not exist', o.log_id)
          WHEN o.position <> coalesce(o.prev_position, o.head_position) + 1 THEN
            format('position %s does not follow position %s', o.position,
                   coalesce(o.prev_position, o.head_position))
          WHEN o.leaf_hash <> sha256('\x00'::bytea || o.record) THEN
            'leaf_hash is not sha256(0x00 || record)'
          WHEN o.chain_hash <> sha256(coalesce(o.prev_chain, o.head_chain_hash) || o.leaf_hash) THEN
            'chain_hash is not sha256(previous chain_hash || leaf_hash)'
          ELSE o.column_problem
        END AS problem
      FROM (
        SELECT a.log_id, a.position, a.record, a.leaf_hash, a.chain_hash,
               lag(a.position)   OVER w AS prev_position,
               lag(a.chain_hash) OVER w AS prev_chain,
               l.head_position, l.head_chain_hash,
               ledger.event_column_problem(a.log_id, a.position, a.event_id, a.stream, a.stream_version,
                 a.type, a.schema_version, a.occurred_at, a.recorded_at, a.subject, a.actor_kind,
                 a.actor_id, a.correlation_id, a.causation_id, d.doc) AS column_problem
        FROM appended a
        CROSS JOIN LATERAL (SELECT convert_from(a.record, 'UTF8')::jsonb AS doc OFFSET 0) d
        LEFT JOIN ledger.logs l ON l.log_id = a.log_id
        WINDOW w AS (PARTITION BY a.log_id ORDER BY a.position)
      ) o
    ) c
    WHERE c.problem IS NOT NULL
    ORDER BY c.log_id, c.position
    LIMIT 1;
  EXCEPTION WHEN data_exception THEN
    -- A record PostgreSQL cannot read as JSON (or whose occurredAt is no timestamp): name the
    -- first one (a subtransaction per row, only on this failure path).
    FOR v_row IN SELECT a.log_id, a.position, a.record FROM appended a ORDER BY a.log_id, a.position LOOP
      BEGIN
        v_doc := convert_from(v_row.record, 'UTF8')::jsonb;
        PERFORM (v_doc->'event'->>'occurredAt')::timestamptz;
      EXCEPTION WHEN data_exception THEN
        RAISE EXCEPTION USING
          ERRCODE = 'CL006',
          MESSAGE = format('refused event at log %s position %s: the record is not the JSON object the ledger writes (%s)',
                           v_row.log_id, v_row.position, SQLERRM),
          HINT = 'Append through ledger.append_events, which builds the record from the event.';
      END;
    END LOOP;
    RAISE;
  END;

  IF FOUND THEN
    RAISE EXCEPTION USING
      ERRCODE = 'CL006',
      MESSAGE = format('refused event at log %s position %s: %s', bad.log_id, bad.position, bad.problem),
      HINT = 'Append through ledger.append_events, which computes positions and hashes; '
          || 'a row written by hand must carry exactly those values.';
  END IF;

  -- The newest row of the statement, and whether it is all one log on one day (every append the
  -- ledger makes): then the head moves, the day's count grows and the runners are woken by
  -- statements on that one log, whose plans cost little to set up; rows of several logs or days
  -- (an owner's hand-written insert) take the general statements below.
  SELECT min(a.log_id) AS log_id, max(a.position) AS position,
         (array_agg(a.chain_hash ORDER BY a.position DESC))[1] AS chain_hash,
         min((a.recorded_at AT TIME ZONE 'UTC')::date) AS day, count(*) AS rows,
         min(a.log_id) = max(a.log_id) AND min((a.recorded_at AT TIME ZONE 'UTC')::date) = max((a.recorded_at AT TIME ZONE 'UTC')::date) AS alike
    INTO v_newest
    FROM appended a;
  IF v_newest.alike THEN
    UPDATE ledger.logs SET head_position = v_newest.position, head_chain_hash = v_newest.chain_hash
     WHERE log_id = v_newest.log_id;
    INSERT INTO ledger.event_days AS d (log_id, day, events) VALUES (v_newest.log_id, v_newest.day, v_newest.rows)
    ON CONFLICT (log_id, day) DO UPDATE SET events = d.events + excluded.events;
    PERFORM pg_notify('consent_ledger_appended', v_newest.log_id);
    RETURN NULL;
  END IF;
  UPDATE ledger.logs l
     SET head_position = n.position, head_chain_hash = n.chain_hash
    FROM (SELECT DISTINCT ON (a.log_id) a.log_id, a.position, a.chain_hash
            FROM appended a ORDER BY a.log_id, a.position DESC) n
   WHERE l.log_id = n.log_id;
  -- Count them by UTC day of the ledger's clock (ledger.event_days, the console's chart).
  INSERT INTO ledger.event_days AS d (log_id, day, events)
  SELECT a.log_id, (a.recorded_at AT TIME ZONE 'UTC')::date, count(*)
    FROM appended a
   GROUP BY 1, 2
  ON CONFLICT (log_id, day) DO UPDATE SET events = d.events + excluded.events;
  -- Wake the projection runners (LISTEN consent_ledger_appended): delivered at commit, never for
  -- a rolled-back append; the payload is the log id. Runners also poll, so a lost notification
  -- only delays them.
  PERFORM pg_notify('consent_ledger_appended', n.log_id)
     FROM (SELECT DISTINCT a.log_id FROM appended a) n;
  RETURN NULL;
END
$fn$;
