-- Reading by time. recorded_at rises with position within a log (it is taken after the head lock),
-- so a BRIN index stays small and exact enough; occurred_at (the device clock) is not ordered.
CREATE INDEX IF NOT EXISTS events_recorded_at ON ledger.events USING brin (recorded_at);
