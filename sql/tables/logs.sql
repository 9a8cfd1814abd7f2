-- One row per log (tenant). The head row is what appends lock: it holds the position and chain
-- hash of the newest event, so appends to one log serialize here and commit in position order.
-- Only the events trigger (ledger.check_appended_events) moves the head, and only forward to the
-- newest event: ledger.check_head_move refuses anything else.
CREATE TABLE IF NOT EXISTS ledger.logs (
  log_id           text        PRIMARY KEY
                               CHECK (log_id ~ '^[a-z0-9][a-z0-9._-]{0,62}$'),
  head_position    bigint      NOT NULL DEFAULT 0 CHECK (head_position >= 0),
  -- Chain hash of the event at head_position; 32 zero bytes for an empty log (the genesis value).
  head_chain_hash  bytea       NOT NULL DEFAULT '\x0000000000000000000000000000000000000000000000000000000000000000'::bytea
                               CHECK (length(head_chain_hash) = 32),
  created_at       timestamptz NOT NULL DEFAULT clock_timestamp()
);
COMMENT ON TABLE ledger.logs IS 'One row per log (tenant): its head position and head chain hash';
