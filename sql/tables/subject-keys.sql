-- Per-subject encryption keys for personal-data fields (crypto-shredding). Outside the hash chain:
-- an event's personal fields are stored encrypted under its subject's key, and erasing the subject
-- destroys the key, which leaves the ciphertext (and so every hash) intact but unreadable.
-- Only the owner role may read this table; the application role gets keys only through
-- ledger.subject_key, and only the owner may destroy them (ledger.erase_subject).
CREATE TABLE IF NOT EXISTS ledger.subject_keys (
  log_id         text        NOT NULL REFERENCES ledger.logs (log_id),
  subject        text        NOT NULL,
  key            bytea       CHECK (key IS NULL OR length(key) = 32),
  created_at     timestamptz NOT NULL DEFAULT clock_timestamp(),
  destroyed_at   timestamptz,
  CHECK ((key IS NULL) = (destroyed_at IS NOT NULL)),
  PRIMARY KEY (log_id, subject)
);
COMMENT ON TABLE ledger.subject_keys IS 'AES-256-GCM keys for subjects'' personal-data fields; NULL key = erased';
