-- Who looked at a child's data (docs/console.md, "Who looked"): every read of a subject's data
-- (state, replay, explain, dossier, a register filtered to a subject) through the console, the
-- HTTP API or the CLI, recorded before it is answered. Append-only like the events, and
-- hash-chained per log the same way: chain_hash = SHA-256(previous chain_hash || SHA-256(record)),
-- 32 zero bytes before the first row; record is the row's facts as the exact text hashed (jsonb
-- text: key order and spacing are fixed by PostgreSQL). Written only by ledger.record_read.
CREATE TABLE IF NOT EXISTS ledger.read_audit (
  log_id      text        NOT NULL,
  seq         bigint      NOT NULL CHECK (seq >= 1),
  read_at     timestamptz NOT NULL,
  channel     text        NOT NULL CHECK (channel IN ('console', 'api', 'cli')),
  reader      text        NOT NULL,   -- the API key id, or for the CLI the database role and the OS user
  what        text        NOT NULL,   -- state, replay, explain, dossier, consent-register
  subject     text        NOT NULL,
  detail      text        NOT NULL DEFAULT '',   -- as of what, in which format
  client      text        NOT NULL DEFAULT '',   -- where from: the peer address, or the host of the CLI
  record      text        NOT NULL,
  chain_hash  bytea       NOT NULL CHECK (length(chain_hash) = 32),
  PRIMARY KEY (log_id, seq)
);
CREATE INDEX IF NOT EXISTS read_audit_subject ON ledger.read_audit (log_id, subject, seq);
COMMENT ON TABLE ledger.read_audit IS 'Every read of a subject''s data, who, what, when, from where; hash-chained per log';
