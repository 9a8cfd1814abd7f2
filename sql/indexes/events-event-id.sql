-- An event id is stored once per log.
CREATE UNIQUE INDEX IF NOT EXISTS events_event_id ON ledger.events (log_id, event_id);
