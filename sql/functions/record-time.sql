-- ledger.record_time: the recordedAt of a record stored at p_at (the ledger's clock), in the one form
-- every append mode writes into the record: RFC 3339 in UTC with microseconds,
-- 'YYYY-MM-DDTHH:MM:SS.ffffffZ'. ledger.append_events_through, ledger.append_checked_events and
-- the owner's bulk load (decision 0042) all take it from here.
CREATE OR REPLACE FUNCTION ledger.record_time(p_at timestamptz) RETURNS text
LANGUAGE sql STABLE
AS $fn$
  SELECT to_char(p_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')
$fn$;
