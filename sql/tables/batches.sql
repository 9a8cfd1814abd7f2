-- Idempotency: one row per appended batch that carried an idempotency key. A batch retried with
-- the same key returns the positions stored here and writes nothing; the digest tells a true
-- retry from a different batch that reuses the key.
CREATE TABLE IF NOT EXISTS ledger.batches (
  log_id           text        NOT NULL REFERENCES ledger.logs (log_id),
  idempotency_key  text        NOT NULL CHECK (length(idempotency_key) BETWEEN 1 AND 200),
  first_position   bigint      NOT NULL,
  event_count      integer     NOT NULL CHECK (event_count >= 1),
  request_digest   bytea       NOT NULL,
  appended_at      timestamptz NOT NULL,
  PRIMARY KEY (log_id, idempotency_key)
);
COMMENT ON TABLE ledger.batches IS 'Appended batches by idempotency key, so a retry writes nothing';
