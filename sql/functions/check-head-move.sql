-- Trigger function (BEFORE INSERT OR UPDATE ... FOR EACH ROW on ledger.logs): a log's head row is
-- a copy of its newest event, and it only ever moves forward. A new log starts at its newest event
-- (position 0 and the genesis hash when it has none, as always); a head may move only to a later
-- position, and only to the position and chain hash of the newest row of ledger.events for that
-- log. The update that ledger.check_appended_events makes after an append is exactly that;
-- anything else (moving the head back to hide deleted events, pointing it at a hash the events do
-- not have, renaming a log) is refused, for every role including the owner. Only disabling this
-- trigger gets past it, and then only a signed checkpoint or a copy held elsewhere shows what was
-- removed (docs/reliability.md). Costs one index probe per appended batch.
CREATE OR REPLACE FUNCTION ledger.check_head_move() RETURNS trigger
LANGUAGE plpgsql AS $fn$
DECLARE
  v_exists   boolean;
  v_position bigint := 0;
  v_chain    bytea  := '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea;
BEGIN
  -- Moved by the events' insert trigger (ledger.check_appended_events, the only trigger that
  -- updates this table), which has just checked every row it moves the head over: nothing to
  -- check again, and this check is a third of that trigger's cost for one event.
  IF TG_OP = 'UPDATE' AND pg_trigger_depth() > 1 AND NEW.log_id = OLD.log_id AND NEW.created_at = OLD.created_at THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF NEW.log_id IS DISTINCT FROM OLD.log_id OR NEW.created_at IS DISTINCT FROM OLD.created_at THEN
      RAISE EXCEPTION USING
        ERRCODE = 'CL005',
        MESSAGE = format('ledger.logs: the log id and creation time of log %s never change', OLD.log_id),
        HINT = 'A log is never renamed or re-dated; append to a new log instead.';
    END IF;
    IF NEW.head_position = OLD.head_position AND NEW.head_chain_hash = OLD.head_chain_hash THEN
      RETURN NEW;
    END IF;
  END IF;
  -- The log row and its newest event, read in one statement (one snapshot): a transaction that
  -- creates the log and appends to it may commit between two statements here, and would then look
  -- like events without their log.
  SELECT CASE WHEN TG_OP = 'INSERT' THEN EXISTS (SELECT 1 FROM ledger.logs l WHERE l.log_id = NEW.log_id) END,
         newest.position, newest.chain_hash
    INTO v_exists, v_position, v_chain
    FROM (SELECT) AS one
    LEFT JOIN LATERAL (SELECT e.position, e.chain_hash FROM ledger.events e
                        WHERE e.log_id = NEW.log_id ORDER BY e.position DESC LIMIT 1) AS newest ON true;
  IF v_exists THEN
    -- INSERT … ON CONFLICT DO NOTHING of a log that exists (append_events, ledger.subject_key and
    -- ledger.erase_subject make sure the log is there): the row is not inserted, so nothing moves.
    RETURN NEW;
  END IF;
  v_position := coalesce(v_position, 0);
  v_chain := coalesce(v_chain, '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea);
  IF TG_OP = 'UPDATE' AND NEW.head_position <= OLD.head_position THEN
    RAISE EXCEPTION USING
      ERRCODE = 'CL005',
      MESSAGE = format('ledger.logs: the head of log %s may not move from position %s back to %s (or change its chain hash in place)',
                       OLD.log_id, OLD.head_position, NEW.head_position),
      HINT = 'The head only follows appends (ledger.append_events moves it). Events are never removed.';
  END IF;
  IF NEW.head_position <> v_position OR NEW.head_chain_hash <> v_chain THEN
    RAISE EXCEPTION USING
      ERRCODE = 'CL005',
      MESSAGE = format('ledger.logs: the head of log %s would say position %s with chain hash %s, but the newest event is position %s with chain hash %s',
                       NEW.log_id, NEW.head_position, encode(NEW.head_chain_hash, 'hex'), v_position, encode(v_chain, 'hex')),
      HINT = 'The head only follows appends (ledger.append_events moves it).';
  END IF;
  RETURN NEW;
END
$fn$;
