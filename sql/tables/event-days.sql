-- How many events each log recorded on each UTC day of the ledger's clock (recorded_at): what the
-- console's overview charts (docs/console.md),
-- read as a few rows instead of a scan of the log's events. Kept by ledger.check_appended_events
-- in the statement that stores the events, so it holds for every way rows reach ledger.events and
-- is never behind; written only there (and filled once below). Events are never deleted (erasure
-- destroys a subject's key, not its events), so a count only grows.
CREATE TABLE IF NOT EXISTS ledger.event_days (
  log_id          text   NOT NULL,
  day             date   NOT NULL,
  events          bigint NOT NULL CHECK (events > 0),
  PRIMARY KEY (log_id, day)
);
COMMENT ON TABLE ledger.event_days IS 'Events recorded per log and UTC day (recorded_at), kept at append';

-- A ledger migrated from schema 16 or earlier: count what is stored, once. The heads of every log
-- are locked first, as an append does, so no append commits between this count and the new
-- trigger (it waits, then counts its own rows). Its cost is one scan of ledger.events.
DO $fill$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM ledger.event_days) AND EXISTS (SELECT 1 FROM ledger.events) THEN
    PERFORM 1 FROM ledger.logs ORDER BY log_id FOR UPDATE;
    INSERT INTO ledger.event_days (log_id, day, events)
    SELECT log_id, (recorded_at AT TIME ZONE 'UTC')::date, count(*)
      FROM ledger.events
     GROUP BY 1, 2;
  END IF;
END
$fill$;
