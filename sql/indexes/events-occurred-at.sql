-- Reading by the device clock (occurred_at), for reports over a period.
CREATE INDEX IF NOT EXISTS events_occurred_at ON ledger.events (log_id, occurred_at);
