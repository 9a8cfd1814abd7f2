-- Reading a stream by version, and finding a stream's current version (the newest entry).
CREATE UNIQUE INDEX IF NOT EXISTS events_stream_version ON ledger.events (log_id, stream, stream_version);
