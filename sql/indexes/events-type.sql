-- Reading a log's events of one type in position order (projections and reports).
CREATE INDEX IF NOT EXISTS events_type ON ledger.events (log_id, type, position);
